// Hand CPU schedule for the global pools.
//
// Loop nest, per parallel task of `planes_per_task` planes:
//   for each plane:
//     partial   (lanes in vector registers, one pass over the plane)
//     total     (fold the lanes with a vector reduction, then the tail)
//     output
#include "global_cpu_schedule.h"

#include <algorithm>

namespace onnxpool::gen {

using Halide::TailStrategy;
using Halide::Var;

void schedule_global_pool_cpu(GlobalPool& pool, const CpuTiling& tiling) {
  const int vector_size = tiling.vector_size;
  // Partials are loaded a whole vector at a time from within the plane.
  if (pool.lanes % vector_size != 0) {
    throw Halide::CompileError("global pool: " + std::to_string(pool.lanes) + " partials do not fill vectors of " +
                               std::to_string(vector_size) + " (CpuTiling::global_lanes)");
  }
  Halide::Func out = pool.output;
  Var task("task"), plane_in_task("plane_in_task");
  out.split(pool.plane, task, plane_in_task, pool.planes_per_task, TailStrategy::GuardWithIf).parallel(task);
  for (const Halide::Expr& condition : pool.output_specializations) out.specialize(condition);
  for (GlobalStages& g : pool.stages) {
    g.total.compute_at(out, plane_in_task);
    g.total.update(0).unscheduled();  // the tail: fewer elements than lanes, a plain loop
    g.partial.compute_at(g.total, pool.plane);
    g.partial.vectorize(pool.lane, vector_size);
    g.partial.update(0).reorder(pool.lane, g.blocks).vectorize(pool.lane, vector_size);
    int width = pool.lanes;
    for (Halide::Func& fold : g.folds) {
      width /= 2;
      fold.compute_at(g.total, pool.plane).bound(pool.lane, 0, width);
      if (width > 1) fold.vectorize(pool.lane, std::min(width, vector_size));
    }
  }
}

}  // namespace onnxpool::gen
