// GPU schedules.
//
// Separable pools, per call:
//   kernel: each `rows` stage's reduction          (one thread per (input x,
//           output row), the row taps in a register)
//   kernel: each `rows` stage's padding columns    (one thread per entry)
//   kernel: the output, one thread per output value, its `window` stages
//           reduced in registers from the row buffers
// The row buffers live in device memory for the call: their size depends on
// run-time strides and pads, and a GPU block cannot allocate a run-time
// sized shared buffer portably. Every spatial axis but x is fused with the
// plane axis into the blocks' second dimension, so a call is a handful of
// launches, never one per plane.
//
// Global pools: one block per plane, GpuTiling::global_threads threads, each
// folding a strided slice of the plane (consecutive threads read
// consecutive elements); the fold tree halves them in shared memory and one
// thread adds the tail; one thread writes the result.
//
// Correct on PoCL (OpenCL on the CPU) and on CUDA (every test and
// conformance case, tools/gpu_check.sh). The tile sizes (GpuTiling,
// gpu_schedule.h) are the conventional starting point (a warp along x), not
// tuned ones; the timings are in docs/design-decisions.md, "GPU schedules
// and types".
#include "gpu_schedule.h"

namespace onnxpool::gen {

using Halide::TailStrategy;
using Halide::Var;
using Halide::VarOrRVar;

namespace {

// Fuses dimensions 1..rank of `vars` (the outer spatial axes and the plane)
// into one, so that blocks cover every plane in one launch.
VarOrRVar fuse_outer(Halide::Stage stage, const std::vector<VarOrRVar>& vars, const std::string& name) {
  if (vars.size() == 2) return vars[1];
  Var fused(name);
  stage.fuse(vars[1], vars[2], fused);
  for (size_t i = 3; i < vars.size(); ++i) stage.fuse(fused, vars[i], fused);
  return fused;
}

// Returns the thread loop along x.
VarOrRVar tile_2d(Halide::Stage stage, const VarOrRVar& x, const VarOrRVar& y, const std::string& prefix,
                  const GpuTiling& tiling) {
  const bool x_is_rvar = x.is_rvar;
  const bool y_is_rvar = y.is_rvar;
  auto var_like = [&](bool rvar, const std::string& name) -> VarOrRVar {
    if (rvar) return Halide::RVar(prefix + name);
    return Var(prefix + name);
  };
  VarOrRVar xo = var_like(x_is_rvar, "_xo"), xi = var_like(x_is_rvar, "_xi");
  VarOrRVar yo = var_like(y_is_rvar, "_yo"), yi = var_like(y_is_rvar, "_yi");
  stage.gpu_tile(x, y, xo, yo, xi, yi, tiling.tile_x, tiling.tile_y, TailStrategy::GuardWithIf);
  return xi;
}

}  // namespace

void schedule_separable_pool_gpu(SeparablePool& pool, const GpuTiling& tiling) {
  const int rank = pool.spatial_rank;
  std::vector<VarOrRVar> out_vars(pool.vars.begin(), pool.vars.end());
  Halide::Func out = pool.output;
  const VarOrRVar out_outer = fuse_outer(out, out_vars, "out_outer");
  Var xo("out_xo"), xi("out_xi");
  Var yo("out_yo"), yi("out_yi");
  out.gpu_tile(pool.vars[0], out_outer.var, xo, yo, xi, yi, tiling.tile_x, tiling.tile_y,
               TailStrategy::GuardWithIf);

  for (SeparableStages& stage : pool.stages) {
    // One output value per thread: its window in registers.
    stage.window.compute_at(out, xi);

    stage.rows.compute_root();

    // The reduction: one thread per (input x, output row), its column's row
    // taps reduced in registers. Distinct input x write distinct entries,
    // which is what lets Halide run that reduction axis in parallel.
    const RowReduction& reduction = stage.reduction;
    Halide::Stage reduce = stage.rows.update(0);
    std::vector<VarOrRVar> reduce_vars = {reduction.input_x.x};
    for (int i = 1; i <= rank; ++i) reduce_vars.emplace_back(pool.vars[i]);
    const VarOrRVar thread_x =
        tile_2d(reduce, reduce_vars[0], fuse_outer(reduce, reduce_vars, stage.rows.name() + "_reduce_outer"),
                stage.rows.name() + "_reduce", tiling);
    Halide::Func column = reduction.column;
    column.compute_at(stage.rows, thread_x.rvar);

    // The padding columns: one thread per entry. Halide cannot see that the
    // entries are distinct (a select maps the padding RDom's first `left`
    // values before x = 0 and the rest past the input), so it is told.
    Halide::Stage pad = stage.rows.update(1).allow_race_conditions();
    std::vector<VarOrRVar> pad_vars = {stage.padding.x};
    for (int i = 1; i <= rank; ++i) pad_vars.emplace_back(pool.vars[i]);
    tile_2d(pad, pad_vars[0], fuse_outer(pad, pad_vars, stage.rows.name() + "_pad_outer"),
            stage.rows.name() + "_pad", tiling);
  }
}

void schedule_global_pool_gpu(GlobalPool& pool, const GpuTiling& tiling) {
  if (pool.lanes != tiling.global_threads) {
    throw Halide::CompileError("global pool on a GPU: expected " + std::to_string(tiling.global_threads) +
                               " partials, got " + std::to_string(pool.lanes));
  }
  Halide::Func out = pool.output;
  Var block("plane_block"), thread("plane_thread");
  out.split(pool.plane, block, thread, 1, TailStrategy::GuardWithIf).gpu_blocks(block).gpu_threads(thread);
  for (GlobalStages& g : pool.stages) {
    // At block level: a later stage (GlobalLpPool's scaled sum) reads an
    // earlier stage's total from every thread of the block.
    g.total.compute_at(out, block);
    g.partial.compute_at(out, block).gpu_threads(pool.lane);
    g.partial.update(0).gpu_threads(pool.lane);
    int width = pool.lanes;
    for (Halide::Func& fold : g.folds) {
      width /= 2;
      fold.compute_at(out, block).bound(pool.lane, 0, width).gpu_threads(pool.lane);
    }
  }
}

}  // namespace onnxpool::gen
