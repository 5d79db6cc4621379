// Hand CPU schedule for separable pooling pipelines.
//
// Loop nest, per parallel task of `rows_per_task` output rows of one plane:
//   for each output row:   rows        (the row taps of each input x vector,
//                                       then the identity in the padding)
//     for each x vector:   window      (accumulates in registers)
//                          output
// The row buffer is allocated once per task (store_at the task loop): a heap
// allocation per row cost 1.7x on S1 (design.md §6).
#include "cpu_schedule.h"

namespace onnxpool::gen {

using Halide::TailStrategy;
using Halide::Var;

namespace {

// Kernel shapes that dominate real models get loops with constant trip counts.
struct FixedWindow {
  int kernel, stride;
};
constexpr FixedWindow kFixedXWindows[] = {{3, 2}, {2, 2}, {3, 1}, {1, 1}};

// `rows`: input x vectorized; for the fixed row kernels (and, for an
// idempotent reduction, without per-tap tests) the taps reduce in one
// expression, otherwise each vector's `column` (its tap loop) is computed in
// registers inside it. Then the few padding columns, one at a time. Halide
// masks the last vector of a row (an update's tail may not be shifted back
// over entries already computed).
void schedule_rows(const SeparablePool& pool, SeparableStages& stage, int vector_size) {
  const RowReduction& reduction = stage.reduction;
  Halide::RVar xo(reduction.input_x.x.name() + "_o"), xi(reduction.input_x.x.name() + "_i");
  auto schedule_reduce = [&](Halide::Stage reduce, int lanes) {
    auto vectorize_x = [&](Halide::Stage s) {
      s.split(reduction.input_x.x, xo, xi, lanes, TailStrategy::GuardWithIf).vectorize(xi);
    };
    if (pool.spatial_rank > 1) {
      const bool may_skip_tests = pool.clamp_safe.defined();
      Halide::Stage fixed_kernels = may_skip_tests ? reduce.specialize(pool.clamp_safe) : reduce;
      for (int k : kFixedRowKernels) vectorize_x(fixed_kernels.specialize(fixed_row_kernels(pool, k)));
      if (may_skip_tests) vectorize_x(fixed_kernels);
    }
    vectorize_x(reduce);
  };
  // Rows a whole number of half vectors long but not of vectors (VGG's
  // 56-wide planes) are written in half vectors, with no masked last vector:
  // the window stage reloads that entry, and a masked store is not forwarded
  // to a load (a stall per row).
  Halide::Stage reduce = stage.rows.update(0);
  const Halide::Expr width = pool.input_extents[0];
  const int half = vector_size / 2;
  if (half >= 4) schedule_reduce(reduce.specialize(width % vector_size != 0 && width % half == 0), half);
  schedule_reduce(reduce, vector_size);
  Halide::Func column = reduction.column;
  column.compute_at(stage.rows, xi);
  // The padding: a column or two at each end of a row, a plain loop. (A
  // masked vector store per end instead: MaxPool S4 69 -> 89 us.)
  stage.rows.update(1).unscheduled();
}

// `window` is computed per output vector; an explicit split lets narrow rows
// (fewer outputs than a vector) mask it too.
void schedule_window(const SeparablePool& pool, SeparableStages& stage, int vector_size) {
  Var x = pool.vars[0];
  stage.window.vectorize(x, vector_size, TailStrategy::GuardWithIf);
  Halide::Stage reduce = stage.window.update(0);
  if (pool.common_window_copies) {
    for (const FixedWindow& w : kFixedXWindows) {
      Halide::Stage s = reduce.specialize(pool.dims[0].is(w.kernel, w.stride, 1));
      s.vectorize(x, vector_size, TailStrategy::GuardWithIf).unroll(stage.x_taps[0]);
    }
  }
  reduce.vectorize(x, vector_size, TailStrategy::GuardWithIf);
}

// The output's loops: x vectors inside rows inside parallel tasks of
// (a run of rows, every outer axis, plane): enough tasks for both cores even
// at batch 1, few enough that each task amortizes the thread pool's wake-up.
void schedule_output_loops(Halide::Stage out, const SeparablePool& pool, int vector_size, TailStrategy tail) {
  const int rank = pool.spatial_rank;
  Var x = pool.vars[0], plane = pool.vars[rank];
  Var xo("xo"), xi("xi"), task("task"), rows_in_task("rows_in_task");
  out.split(x, xo, xi, vector_size, tail).vectorize(xi);
  if (rank == 1) {
    out.split(plane, task, rows_in_task, pool.rows_per_task, TailStrategy::GuardWithIf);
  } else {
    out.split(pool.vars[1], task, rows_in_task, pool.rows_per_task, TailStrategy::GuardWithIf);
    for (int i = 2; i <= rank; ++i) out.fuse(task, pool.vars[i], task);
  }
  out.parallel(task);
}

}  // namespace

void schedule_separable_pool_cpu(SeparablePool& pool, const CpuTiling& tiling) {
  const int vector_size = tiling.vector_size;
  Halide::Func out = pool.output;
  // Every copy of the loop nest made here carries the algorithm's own
  // specializations (e.g. row-major Indices, which avoid a division per
  // output) inside it: a copy without them would compute every branch of the
  // general definition.
  auto with_algorithm_specializations = [&](Halide::Stage stage) {
    for (const Halide::Expr& condition : pool.output_specializations) stage.specialize(condition);
  };
  // Outputs at least a vector wide end each row with a vector shifted back
  // over outputs already written (recomputing the same values), not a masked
  // partial one: on 28-wide planes the masked tail was half of all vectors.
  // A specialization starts from the schedule as it stands when it is made,
  // so the narrow one is made (and scheduled) first.
  const Halide::Expr out_width = out.output_buffers()[0].dim(0).extent();
  Halide::Stage narrow = out.specialize(out_width < vector_size);
  schedule_output_loops(narrow, pool, vector_size, TailStrategy::GuardWithIf);
  with_algorithm_specializations(narrow);
  schedule_output_loops(out, pool, vector_size, TailStrategy::ShiftInwards);
  // One copy of the loop nest per common x window, so the choice among the
  // window stage's specializations is made once per call, not per vector
  // (S1: 23% fewer instructions).
  if (pool.common_window_copies) {
    for (const FixedWindow& w : kFixedXWindows) {
      with_algorithm_specializations(out.specialize(pool.dims[0].is(w.kernel, w.stride, 1)));
    }
  }
  with_algorithm_specializations(out);

  for (Halide::Func table : pool.per_axis_tables) table.compute_root();

  Var xo("xo"), task("task");
  for (SeparableStages& stage : pool.stages) {
    stage.window.compute_at(out, xo);
    schedule_window(pool, stage, vector_size);
    // All of a task's rows at once: the per-row loop set-up of computing them
    // row by row cost more than the row's work on 28-wide planes.
    stage.rows.compute_at(out, task);
    schedule_rows(pool, stage, vector_size);
  }
}

}  // namespace onnxpool::gen
