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

// How the target's schedule blocks each plane (schedules/schedule.h).
struct GlobalBlocking {
  // Partial results per plane (a power of two): one vector step, or a few
  // (independent dependency chains for long planes; global_blocking).
  int lanes = 0;
  // A CPU schedule can reduce an order-free combine's partials for a whole
  // vector of planes at once (global_cpu_schedule.cpp); a GPU one folds each
  // plane's partials across its threads.
  bool vectors_of_planes = false;
};

// Whether the combine gives the same bits in any order (an integer max),
// so one plane's partials may be reduced by another tree than a vector of
// planes' are.
enum class CombineOrder { kFixed, kFree };

struct GlobalStages {
  Halide::Func partial;             // (lane, plane): update 0 folds in whole blocks of `lanes`
  Halide::RDom blocks;
  std::vector<Halide::Func> folds;  // (lane, plane): lanes / 2, lanes / 4, ..., 1 wide
  // Order-free combines where the schedule reduces vectors of planes:
  // (plane), update 0 reduces all of a plane's partials at once; the total
  // takes it instead of the last fold when whole_vectors_of_planes holds.
  Halide::Func lanes_at_once;
  Halide::RDom lanes;
  Halide::Func total;               // (plane): the folded partials; update 0 adds the tail
  Halide::RDom tail;
};

struct GlobalPool {
  Halide::Var s{"s"}, lane{"lane"}, plane{"plane"};
  Halide::Expr plane_size;      // elements per plane
  Halide::Expr planes;          // planes in this call
  int lanes = 0;                // partial results per plane, as GlobalBlocking::lanes
  bool vectors_of_planes = false;
  std::vector<GlobalStages> stages;  // in the order they are computed
  Halide::Func output;
  Halide::Expr planes_per_task;  // parallel grain, chosen by the runtime
  // The call's planes and every task's come in whole vectors of `lanes`
  // planes (the runtime rounds planes_per_task so they do where it can).
  Halide::Expr whole_vectors_of_planes;
  Halide::Type accumulator_type;
  std::vector<Halide::Expr> output_specializations;  // as in SeparablePool
};

// A pool over `input`'s planes, before any reduction is added.
template <typename InputT>
GlobalPool make_global_pool(const InputT& input, const Halide::Expr& planes_per_task, const Halide::Type& accumulator,
                            const GlobalBlocking& blocking) {
  GlobalPool pool;
  pool.plane_size = input.dim(0).extent();
  pool.planes = input.dim(1).extent();
  pool.accumulator_type = accumulator;
  pool.lanes = blocking.lanes;
  pool.vectors_of_planes = blocking.vectors_of_planes;
  pool.planes_per_task = planes_per_task;
  pool.whole_vectors_of_planes = planes_per_task % pool.lanes == 0 && pool.planes % pool.lanes == 0;
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
                                         const Halide::Func& value, CombineOrder order = CombineOrder::kFixed);

}  // namespace onnxpool::gen
