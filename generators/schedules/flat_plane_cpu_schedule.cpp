// Hand CPU schedule of the flat-plane "same" pools.
//
// Loop nest, per parallel task of `planes_per_task` planes:
//   for each plane:        columns     (the edge rows, then the interior:
//                                       each one vector loop)
//     for each vector:     window      (accumulates in registers)
//                          output
// The per-position tables are computed once per call. A plane's `columns`
// fits in L1 or L2 on the planes the runtime sends here
// (runtime/flat_plane.cpp); one plane's block is allocated per task and
// reused by each of its planes.
#include "flat_plane_cpu_schedule.h"

namespace onnxpool::gen {

using Halide::TailStrategy;
using Halide::Var;

namespace {

// One update of `columns`, vectorized along its flat (or x) position: the
// fixed row kernels unrolled, the others with their tap-loop Func computed
// per vector. Halide masks the loop's last vector (an update's tail may not
// be shifted back over entries it already wrote).
void schedule_column_update(Halide::Func columns, int update, const Halide::RVar& position, Halide::Func tap_loop,
                            const FlatPlanePool& pool, int vector_size) {
  Halide::RVar outer(position.name() + "_o"), inner(position.name() + "_i");
  // Each entry is written once: the edge rows' flat positions are
  // x + row * width, distinct, which Halide cannot prove for a run-time width.
  Halide::Stage stage = columns.update(update).allow_race_conditions();
  auto vectorize = [&](Halide::Stage s) {
    s.split(position, outer, inner, vector_size, TailStrategy::GuardWithIf).vectorize(inner);
  };
  for (int k : kFixedFlatKernels) vectorize(stage.specialize(fixed_flat_kernel(pool.y, k)));
  vectorize(stage);
  tap_loop.compute_at(columns, inner);
}

}  // namespace

void schedule_flat_plane_pool_cpu(FlatPlanePool& pool, const CpuTiling& tiling) {
  const int vector_size = tiling.vector_size;
  Halide::Func out = pool.output;
  const Var i = pool.i, plane = pool.plane;
  Var io("io"), ii("ii"), task("task"), plane_in_task("plane_in_task");
  auto output_loops = [&](Halide::Stage s, TailStrategy tail) {
    s.split(i, io, ii, vector_size, tail).vectorize(ii);
    s.split(plane, task, plane_in_task, pool.planes_per_task, TailStrategy::GuardWithIf);
    s.parallel(task);
  };
  // A plane at least a vector long ends with a vector shifted back over
  // outputs already written (the same values again), not a masked one.
  const Halide::Expr area = out.output_buffers()[0].dim(0).extent();
  output_loops(out.specialize(area < vector_size), TailStrategy::GuardWithIf);
  output_loops(out, TailStrategy::ShiftInwards);
  // One copy of the loop nest per fixed x kernel, so the window stage's
  // choice is made once per call, not per vector.
  for (int k : kFixedFlatKernels) out.specialize(fixed_flat_kernel(pool.x, k));

  for (size_t t = 0; t < pool.per_call_tables.size(); ++t) {
    Halide::Func table = pool.per_call_tables[t];
    Halide::RVar x = pool.table_positions[t].x;
    table.compute_root();
    table.update(0).allow_race_conditions().vectorize(x, vector_size, TailStrategy::GuardWithIf);
  }

  for (FlatPlaneStages& s : pool.stages) {
    s.window.compute_at(out, io).vectorize(i, vector_size, TailStrategy::GuardWithIf);
    Halide::Stage reduce = s.window.update(0);
    for (int k : kFixedFlatKernels) {
      reduce.specialize(fixed_flat_kernel(pool.x, k))
          .unroll(s.x_taps.x)
          .vectorize(i, vector_size, TailStrategy::GuardWithIf);
    }
    reduce.vectorize(i, vector_size, TailStrategy::GuardWithIf);

    // One plane's block, reused by each plane of the task: the same size for
    // every task, the last included (see cpu_schedule.cpp's rows); it also
    // stays in L1, where a task's 24 planes of it did not (AveragePool S4
    // was slower: docs/design-decisions.md, "Scratch allocator").
    s.columns.compute_at(out, plane_in_task).store_at(out, task).fold_storage(plane, 1);
    schedule_column_update(s.columns, 0, s.edge_rows.x, s.edge_column, pool, vector_size);
    schedule_column_update(s.columns, 1, s.interior.x, s.interior_column, pool, vector_size);
    // The x padding: a few entries per plane, a plain loop.
    s.columns.update(2).unscheduled();
  }
}

}  // namespace onnxpool::gen
