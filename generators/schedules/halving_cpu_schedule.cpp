// Loop nest, per parallel task of `rows_per_task` output rows of one plane:
//   for each output row:
//     for each x vector:  the four taps' loads (two vectors per input row,
//                         deinterleaved), the reduction, one store
// Rows at least a vector wide end with a vector shifted back over outputs
// already written (VGG's 28-wide rows: 16 + 16 with 4 recomputed), as the
// separable schedule does; narrower rows take one masked vector.
//
// Measured (float32 MaxPool 1x128x56x56, the benchmark binary, 1 thread,
// AVX-512): 24.1-24.5 us against 37-39 for the separable kernel (oneDNN nhwc
// 25.3-25.7 in the same runs). In a stand-alone build of this pipeline, a
// `col` Func of the vertical pairs computed per x vector (so that the
// deinterleave would follow the vertical max: two permutes per vector
// instead of four) took 98-101 us against 35 for the inlined taps, whether
// stored on the stack, in registers or unrolled: its reload straddles the
// two stores and is not forwarded.
#include "halving_cpu_schedule.h"

namespace onnxpool::gen {

using Halide::TailStrategy;
using Halide::Var;

namespace {

void schedule_loops(Halide::Stage out, const HalvingPool& pool, int vector_size, TailStrategy tail) {
  Var xo("xo"), xi("xi"), task("task"), rows_in_task("rows_in_task");
  out.split(pool.x, xo, xi, vector_size, tail).vectorize(xi);
  out.split(pool.y, task, rows_in_task, pool.rows_per_task, TailStrategy::GuardWithIf);
  out.fuse(task, pool.plane, task).parallel(task);
}

}  // namespace

void schedule_halving_pool_cpu(HalvingPool& pool, const CpuTiling& tiling) {
  Halide::Func out = pool.output;
  const Halide::Expr out_width = out.output_buffers()[0].dim(0).extent();
  // A specialization starts from the schedule as it stands, so the narrow
  // one is made (and scheduled) first.
  schedule_loops(out.specialize(out_width < tiling.vector_size), pool, tiling.vector_size,
                 TailStrategy::GuardWithIf);
  schedule_loops(out, pool, tiling.vector_size, TailStrategy::ShiftInwards);
}

}  // namespace onnxpool::gen
