// Hand CPU schedule for separable pooling pipelines.
//
// Loop nest, per parallel task of `rows_per_task` output rows of one plane:
//   for each output row:   rows        (vectorized along input x)
//                          padded_row  (copy into an identity-padded buffer;
//                                       loop partitioning keeps the copy dense)
//     for each x vector:   window      (accumulates in registers)
//                          output
// The row buffers are allocated once per task (store_at the task loop): a heap
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
constexpr int kFixedRowKernels[] = {3, 2, 1};

void schedule_rows(SeparablePool& pool, int vector_size) {
  Var x = pool.vars[0];
  pool.rows.vectorize(x, vector_size, TailStrategy::GuardWithIf);
  Halide::Stage reduce = pool.rows.update(0);
  // Without per-tap tests the taps of one vector accumulate in a register.
  Halide::Stage untested = reduce.specialize(pool.rows_clamp_safe);
  for (int k : kFixedRowKernels) {
    Halide::Expr fixed = Halide::Internal::const_true();
    for (int i = 1; i < pool.spatial_rank; ++i) fixed = fixed && (*pool.dims[i].kernel) == k;
    Halide::Stage s = untested.specialize(fixed);
    s.vectorize(x, vector_size, TailStrategy::GuardWithIf);
    for (int i = 0; i < pool.row_taps.dimensions(); ++i) s.unroll(pool.row_taps[i]);
  }
  untested.vectorize(x, vector_size, TailStrategy::GuardWithIf);
  reduce.vectorize(x, vector_size, TailStrategy::GuardWithIf);
}

void schedule_window(SeparablePool& pool, int vector_size) {
  Var x = pool.vars[0];
  pool.window.vectorize(x);
  Halide::Stage reduce = pool.window.update(0);
  for (const FixedWindow& w : kFixedXWindows) {
    Halide::Stage s = reduce.specialize(pool.dims[0].is(w.kernel, w.stride, 1));
    s.vectorize(x).unroll(pool.x_taps[0]);
  }
  reduce.vectorize(x);
}

}  // namespace

void schedule_separable_pool_cpu(SeparablePool& pool, const Halide::Target& target) {
  const int vector_size = target.natural_vector_size(pool.accumulator_type);
  const int rank = pool.spatial_rank;
  Var x = pool.vars[0], plane = pool.vars[rank];
  Var xo("xo"), xi("xi"), task("task"), rows_in_task("rows_in_task");

  Halide::Func out = pool.output;
  out.split(x, xo, xi, vector_size, TailStrategy::GuardWithIf).vectorize(xi);

  // Parallel over (outer rows, plane): enough tasks for both cores even at
  // batch 1, few enough that each task amortizes the thread pool's wake-up.
  Var row_loop = x;
  if (rank == 1) {
    out.split(plane, task, rows_in_task, pool.rows_per_task, TailStrategy::GuardWithIf);
    row_loop = rows_in_task;
  } else {
    Var y = pool.vars[1];
    out.split(y, task, rows_in_task, pool.rows_per_task, TailStrategy::GuardWithIf);
    for (int i = 2; i <= rank; ++i) out.fuse(task, pool.vars[i], task);
    row_loop = rows_in_task;
  }
  out.parallel(task);
  // Specializations copy the schedule as it stands, so they come after it.
  for (const Halide::Expr& condition : pool.output_specializations) out.specialize(condition);

  pool.window.compute_at(out, xo);
  schedule_window(pool, vector_size);

  // One row of storage, reused by every row of the task.
  pool.padded_row.store_at(out, task).compute_at(out, row_loop);
  pool.padded_row.vectorize(x, vector_size, TailStrategy::RoundUp);
  if (rank > 1) pool.padded_row.fold_storage(pool.vars[1], 1);
  if (pool.rows.defined()) {
    pool.rows.store_at(out, task).compute_at(out, row_loop).fold_storage(pool.vars[1], 1);
    schedule_rows(pool, vector_size);
  }
}

}  // namespace onnxpool::gen
