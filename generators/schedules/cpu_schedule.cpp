// Hand CPU schedule for separable pooling pipelines.
//
// Loop nest, per parallel task of `rows_per_task` output rows of one plane:
//   for each output row:   rows        (the row taps of each input x vector,
//                                       then the identity in the padding)
//     for each x vector:   window      (accumulates in registers)
//                          output
// The row buffer is allocated once per task (store_at the task loop): a heap
// allocation per row cost 1.7x on S1 (docs/design-decisions.md, "Row buffer
// and padding").
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

// Geometries whose x loops are unrolled in a copy of their own: the rows
// stage's over input_width (for the window's row kernel) and the output's
// over output_width (in the window's copy). Only the ResNet stem, 3x3 /
// stride 2 / pad 1 on 112-wide planes (S1, and S2 at batch 32), the most
// common MaxPool of deployed CNNs: on AVX2 its rows are 14 vectors and its
// output rows 7, short enough that each loop's exit costs a good part of the
// row. Measured (AMD EPYC Zen 3 VM, AVX2, MaxPool S1, one kernel swapped
// into the same library, onnxpool / XNNPACK NHWC in the same process,
// medians of 8 alternations, 1 thread / 2 threads): 1.62 -> 1.23 and 1.48 ->
// 1.16 (231 -> 185 us, 115 -> 104); in a second set, rows unrolled alone
// 1.72 -> 1.47, output alone 1.49, both 1.42. Each geometry costs the
// kernels that have it about 5 s of generation (float32 2D MaxPool, AVX2:
// 3.2 -> 8.8 s), so other widths keep the generic loops.
struct UnrolledGeometry {
  FixedWindow window;
  int input_width, output_width;
};
constexpr UnrolledGeometry kUnrolledGeometries[] = {{{3, 2}, 112, 56}};

// The unrolled rows loop grows with the vectors per row, and its generation
// time faster: with 2- and 4-lane vectors (float64, SSE4.1) a 112-wide row is
// 28-56 vectors, which took the float64 scaled LpPool kernel from 22 to 136 s
// and bought nothing measured. 16 keeps AVX2 and AVX-512 float32 (14 and 7
// vectors) and the 16-bit keys.
constexpr int kMostUnrolledVectorsPerRow = 16;

bool unrolls_geometries(const SeparablePool& pool, const CpuTiling& tiling) {
  return tiling.unroll_stem && pool.spatial_rank == 2 && pool.common_window_copies && pool.unrolled_geometry_copies;
}

bool unrolls(const UnrolledGeometry& g, int vector_size) {
  return g.input_width <= kMostUnrolledVectorsPerRow * vector_size;
}

// `rows`: input x vectorized; for the fixed row kernels (and, for an
// idempotent reduction, without per-tap tests) the taps reduce in one
// expression, otherwise each vector's `column` (its tap loop) is computed in
// registers inside it. Then the few padding columns, one at a time. Halide
// masks the last vector of a row (an update's tail may not be shifted back
// over entries already computed).
void schedule_rows(const SeparablePool& pool, SeparableStages& stage, int vector_size, bool unroll_geometries) {
  const RowReduction& reduction = stage.reduction;
  Halide::RVar xo(reduction.input_x.x.name() + "_o"), xi(reduction.input_x.x.name() + "_i");
  const Halide::Expr width = pool.input_extents[0];
  auto schedule_reduce = [&](Halide::Stage reduce, int lanes, bool unroll) {
    auto vectorize_x = [&](Halide::Stage s) {
      s.split(reduction.input_x.x, xo, xi, lanes, TailStrategy::GuardWithIf).vectorize(xi);
    };
    if (pool.spatial_rank > 1) {
      const bool may_skip_tests = pool.clamp_safe.defined();
      Halide::Stage fixed_kernels = may_skip_tests ? reduce.specialize(pool.clamp_safe) : reduce;
      for (int k : kFixedRowKernels) {
        Halide::Stage fixed = fixed_kernels.specialize(fixed_row_kernels(pool, k));
        for (const UnrolledGeometry& g : kUnrolledGeometries) {
          if (!unroll || g.window.kernel != k || !unrolls(g, lanes)) continue;
          Halide::Stage unrolled = fixed.specialize(width == g.input_width);
          vectorize_x(unrolled);
          unrolled.unroll(xo);
        }
        vectorize_x(fixed);
      }
      if (may_skip_tests) vectorize_x(fixed_kernels);
    }
    vectorize_x(reduce);
  };
  // Rows a whole number of half vectors long but not of vectors (VGG's
  // 56-wide planes) are written in half vectors, with no masked last vector:
  // the window stage reloads that entry, and a masked store is not forwarded
  // to a load (a stall per row).
  Halide::Stage reduce = stage.rows.update(0);
  const int half = vector_size / 2;
  if (half >= 4) schedule_reduce(reduce.specialize(width % vector_size != 0 && width % half == 0), half, false);
  schedule_reduce(reduce, vector_size, unroll_geometries);
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
  const bool unroll_geometries = unrolls_geometries(pool, tiling);
  Var xo("xo"), task("task");  // named as schedule_output_loops names them
  // The axis schedule_output_loops splits into tasks: y, or a 1D pool's plane.
  const Var task_rows = pool.vars[1];
  if (pool.common_window_copies) {
    for (const FixedWindow& w : kFixedXWindows) {
      Halide::Stage copy = out.specialize(pool.dims[0].is(w.kernel, w.stride, 1));
      for (const UnrolledGeometry& g : kUnrolledGeometries) {
        if (!unroll_geometries || g.window.kernel != w.kernel || g.window.stride != w.stride ||
            !unrolls(g, vector_size)) {
          continue;
        }
        Halide::Stage unrolled = copy.specialize(out_width == g.output_width);
        unrolled.unroll(xo);
        with_algorithm_specializations(unrolled);
      }
      with_algorithm_specializations(copy);
    }
  }
  with_algorithm_specializations(out);

  for (Halide::Func table : pool.per_axis_tables) table.compute_root();

  for (SeparableStages& stage : pool.stages) {
    stage.window.compute_at(out, xo);
    schedule_window(pool, stage, vector_size);
    // All of a task's rows at once: the per-row loop set-up of computing them
    // row by row cost more than the row's work on 28-wide planes.
    stage.rows.compute_at(out, task);
    // Every task's block is a full task's, the last task of a plane or of
    // the call included: the call's scratch pool provisions each thread of
    // the loop once, before any task writes Y, with the first request's size
    // (runtime/scratch_allocator.h); a smaller first request would leave the
    // full tasks to ask the system again after Y was written.
    stage.rows.bound_storage(task_rows, pool.rows_per_task);
    schedule_rows(pool, stage, vector_size, unroll_geometries);
  }
}

}  // namespace onnxpool::gen
