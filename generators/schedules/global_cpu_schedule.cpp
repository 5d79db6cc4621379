// Hand CPU schedule for the global pools.
//
// Loop nest, per parallel task of `planes_per_task` planes, per plane:
//   partial   the plane's lanes in vector registers, one pass over it
//   folds     halve the lanes, each fold one vector step
//   total     the last fold plus the plane's tail
//   output
//
// Pools whose every reduction is order-free (GlobalMaxPool's integer keys,
// the float32 Lp range check's max) get a second loop nest, taken when the
// call's planes and every task's come in whole vectors of planes (the
// runtime arranges that where it can), per vector of planes: every plane's
// partials (the planes unrolled, so the partials stay in registers and the
// planes run as independent chains), then one reduction of all of them at
// once, which Halide lowers as a vector reduce, a butterfly of two-register
// shuffles (16 planes cost 15 shuffle pairs and 15 maxes, where folding
// each plane costs 4 of each per plane), the tails as one gather per
// element, the output as one vector.
//
// Measured (1x2048x7x7 float32, AVX-512, 1 thread, best median of 10
// processes; this VM runs a process in a fast or a slow mode, e.g. 6.1 or
// 8 us for one binary): GlobalMaxPool one plane at a time 7.5 us, vectors of
// 16 planes 6.1 us. Tried: the butterfly built from the halving folds
// computed over vectors of planes, 9.3 us (each fold's reload straddles two
// stored vectors, so LLVM keeps the folds in memory and no reload is
// forwarded); with operands ordered so every reload is a span of two whole
// vectors, 10.9 us on GlobalAveragePool (LLVM kept the levels in registers
// but built them lane by lane). Sums cannot use the vector reduce:
// strict_float additions are not reassociable, so Halide leaves the
// reduction scalar (GlobalAveragePool 4.9 -> 15 us). GlobalAveragePool in
// vectors of planes with each plane still folded alone (to divide a vector
// of totals at once; a profile puts 60% of the time on the scalar division):
// 4.9 us either way, so the sums keep the plain loop nest.
#include "global_cpu_schedule.h"

#include <algorithm>
#include <iterator>
#include <vector>

namespace onnxpool::gen {

using Halide::TailStrategy;
using Halide::Var;

namespace {

// Plane sizes whose loop nests get a copy of their own with each plane's
// block loop unrolled: 7x7 and 14x14, where ResNet, MobileNet and
// EfficientNet (and their squeeze-and-excitation blocks) end their stages.
// On planes this short the control of each plane's loops costs more than
// its sums: the generic nest runs a 7x7 plane on AVX2 as a 6-trip block loop
// and a 1-trip tail loop. Measured (AMD EPYC Zen 3 VM, AVX2, 1x2048x7x7,
// 1 thread, the kernel swapped into the same library, onnxpool / XNNPACK
// NHWC in the same process, medians of 8 alternations): GlobalAveragePool
// 1.43 -> 1.00 and 1.98 -> 1.14 in two sets of runs (11.5 -> 8.6 us, 15.2
// -> 9.2); GlobalMaxPool, whose vectors of 8 planes already share one block
// loop, 1.46 -> 1.41. The same loop written in C ran 14.1 -> 8.0 us with
// constant trip counts while this VM was in its slow mode (another guest on
// the core, where each loop exit costs more) and 8.8 -> 6.5 in its fast one.
// Longer planes amortize the loop control and keep the one generic nest.
constexpr int kUnrolledPlaneSizes[] = {49, 196};

// Specializes `stage` on each of `conditions` and, within each, on each
// unrolled plane size; then on each plane size alone.
void specialize_output(Halide::Stage stage, const std::vector<Halide::Expr>& conditions,
                       const Halide::Expr& plane_size, const std::vector<int>& unrolled_sizes) {
  for (const Halide::Expr& condition : conditions) {
    Halide::Stage specialized = stage.specialize(condition);
    for (int size : unrolled_sizes) specialized.specialize(plane_size == size);
  }
  for (int size : unrolled_sizes) stage.specialize(plane_size == size);
}

}  // namespace

void schedule_global_pool_cpu(GlobalPool& pool, const CpuTiling& tiling) {
  // One vector step is tiling.global_lanes partials (LLVM splits a step
  // wider than the target's vectors into registers); a plane's partials are
  // one step, or several (global_blocking's chains), all updated in one
  // vectorized step so that each is its own dependency chain.
  const int vector_size = tiling.global_lanes;
  const std::vector<int> unrolled_sizes =
      tiling.unroll_small_planes ? std::vector<int>(std::begin(kUnrolledPlaneSizes), std::end(kUnrolledPlaneSizes))
                                 : std::vector<int>();
  if (pool.lanes % vector_size != 0) {
    throw Halide::CompileError("global pool: " + std::to_string(pool.lanes) +
                               " partials per plane, not a multiple of the tiling's " + std::to_string(vector_size) +
                               " (CpuTiling::global_lanes)");
  }
  const bool order_free = std::all_of(pool.stages.begin(), pool.stages.end(),
                                      [](const GlobalStages& g) { return g.lanes_at_once.defined(); });
  const int block_planes = pool.lanes;
  const Halide::Expr whole_blocks = pool.whole_vectors_of_planes;
  Halide::Func out = pool.output;
  Var task("task"), block("block");
  if (order_free) {
    // Blocks are split off first and then grouped into tasks, so bounds
    // inference sees every block whole (a block split inside a guarded task
    // split is bounded loosely, past the last plane). Halide checks every
    // split factor before it picks a specialization, hence the max.
    Var any_block("any_block"), plane_in_block("plane_in_block");
    Halide::Stage vector_blocks = out.specialize(whole_blocks);
    vector_blocks.split(pool.plane, any_block, plane_in_block, block_planes, TailStrategy::RoundUp)
        .split(any_block, task, block, Halide::max(pool.planes_per_task / block_planes, 1),
               TailStrategy::GuardWithIf)
        .parallel(task)
        .vectorize(plane_in_block);
    specialize_output(vector_blocks, pool.output_specializations, pool.plane_size, unrolled_sizes);
  }
  // One plane per block.
  out.split(pool.plane, task, block, pool.planes_per_task, TailStrategy::GuardWithIf).parallel(task);
  specialize_output(out, pool.output_specializations, pool.plane_size, unrolled_sizes);

  for (GlobalStages& g : pool.stages) {
    g.total.compute_at(out, block);
    // Per plane of the total, or for a whole vector block of planes (the
    // summing pools measured 5.5 us at the block level, 4.9 inside the total).
    const Halide::LoopLevel partials_at =
        order_free ? Halide::LoopLevel(out, block) : Halide::LoopLevel(g.total, pool.plane);
    g.partial.compute_at(partials_at).vectorize(pool.lane, pool.lanes);
    if (order_free) {
      g.total.specialize(whole_blocks).vectorize(pool.plane, block_planes);
      g.total.update(0).specialize(whole_blocks).reorder(pool.plane, g.tail).vectorize(pool.plane, block_planes);
      g.partial.specialize(whole_blocks).unroll(pool.plane);
      for (int size : unrolled_sizes) {
        g.partial.update(0)
            .specialize(whole_blocks && pool.plane_size == size)
            .reorder(pool.lane, pool.plane, g.blocks)
            .vectorize(pool.lane, vector_size)
            .unroll(pool.plane)
            .unroll(g.blocks);
      }
      g.partial.update(0)
          .specialize(whole_blocks)
          .reorder(pool.lane, pool.plane, g.blocks)
          .vectorize(pool.lane, vector_size)
          .unroll(pool.plane);
      g.lanes_at_once.compute_at(out, block);
      g.lanes_at_once.specialize(whole_blocks).vectorize(pool.plane, block_planes);
      g.lanes_at_once.update(0)
          .specialize(whole_blocks)
          .atomic()
          .vectorize(g.lanes.x)
          .vectorize(pool.plane, block_planes);
    }
    // One plane: the partials fold in halves, the tail (fewer elements than
    // lanes) is a plain loop.
    for (int size : unrolled_sizes) {
      g.partial.update(0)
          .specialize(pool.plane_size == size)
          .reorder(pool.lane, g.blocks)
          .vectorize(pool.lane, pool.lanes)
          .unroll(g.blocks);
    }
    g.partial.update(0).reorder(pool.lane, g.blocks).vectorize(pool.lane, pool.lanes);
    int width = pool.lanes;
    for (Halide::Func& fold : g.folds) {
      width /= 2;
      fold.compute_at(partials_at).bound(pool.lane, 0, width);
      if (width > 1) fold.vectorize(pool.lane, width);
    }
  }
}

}  // namespace onnxpool::gen
