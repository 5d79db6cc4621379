// The shape the global pools (GlobalMaxPool, GlobalAveragePool, GlobalLpPool)
// share, handed to a schedule. The runtime flattens every spatial axis into
// one, so the input is [plane][s] (Halide: (s, plane)) and the output one
// value per plane, whatever X's rank.
//
// Each plane's reduction is blocked into `lanes` running partial results
// (one vector register's worth or a few) so it vectorizes without reading
// past the plane; the partials are folded in halves (a fixed tree, the same
// order in every build; the kernels are strict_float, so LLVM may not
// reorder a plain lane-by-lane fold, which cost 3x on 1x2048x7x7), then the
// plane's last S mod lanes elements are added.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "Halide.h"

namespace onnxpool::gen {

struct GlobalStages {
  Halide::Func partial;             // (lane, plane): update 0 folds in whole blocks of `lanes`
  Halide::RDom blocks;
  std::vector<Halide::Func> folds;  // (lane, plane): lanes / 2, lanes / 4, ..., 1 wide
  Halide::Func total;               // (plane): the last fold; update 0 adds the tail
  Halide::RDom tail;
};

struct GlobalPool {
  Halide::Var s{"s"}, lane{"lane"}, plane{"plane"};
  Halide::Expr plane_size;      // elements per plane
  int lanes = 0;                // partial results per plane (a multiple of the vector width)
  std::vector<GlobalStages> stages;  // in the order they are computed
  Halide::Func output;
  Halide::Expr planes_per_task;  // parallel grain, chosen by the runtime
  Halide::Type accumulator_type;
  std::vector<Halide::Expr> output_specializations;  // as in SeparablePool
};

// A pool over `input`'s planes, before any reduction is added.
template <typename InputT>
GlobalPool make_global_pool(const InputT& input, const Halide::Expr& planes_per_task, const Halide::Type& accumulator,
                            int lanes) {
  GlobalPool pool;
  pool.plane_size = input.dim(0).extent();
  pool.accumulator_type = accumulator;
  pool.lanes = lanes;
  pool.planes_per_task = planes_per_task;
  return pool;
}

// Estimates for the autoschedulers: `planes` planes of `plane_size` elements.
template <typename InputT, typename OutputT, typename GrainT>
void set_global_estimates(InputT& input, OutputT& output, GrainT& planes_per_task, int plane_size, int planes) {
  input.set_estimates({{0, plane_size}, {0, planes}});
  output.set_estimates({{0, planes}});
  planes_per_task.set_estimate(planes / 8);
}

// Reduces value(s, plane) over s in [0, plane_size) with an associative,
// commutative `combine`; appends the stages to pool.stages.
const GlobalStages& add_global_reduction(GlobalPool& pool, const std::string& name, const Halide::Expr& identity,
                                         const std::function<Halide::Expr(Halide::Expr, Halide::Expr)>& combine,
                                         const Halide::Func& value);

}  // namespace onnxpool::gen
