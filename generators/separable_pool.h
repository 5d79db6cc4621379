// The shape every windowed pooling algorithm shares, handed to a schedule.
//
// A window reduction is separable: first reduce along every spatial axis but
// the fastest (`rows`: one value per x, padding included, per output row),
// then reduce along x (`window`). No stage clamps a vector index, so no lane
// gathers; the padding lives in the row buffer (design.md §3 and §6).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "Halide.h"
#include "window_params.h"

namespace onnxpool::gen {

// One separable reduction: `rows` then `window`. An algorithm may chain
// several (LpPool's scaled sum needs each window's largest magnitude first).
struct SeparableStages {
  Halide::Func rows;   // update 0 reduces the input into the padded row
  Halide::RDom taps;   // taps[0]: input x; taps[1..]: the row taps
  Halide::Func window;
  Halide::RDom x_taps;
};

struct SeparablePool {
  int spatial_rank = 0;
  std::vector<Halide::Var> vars;       // x, [y, [z,]] plane: output (and stage) coordinates
  std::vector<Halide::Expr> input_extents;  // by Halide dimension, plane last
  std::vector<WindowDim> dims;
  std::vector<SeparableStages> stages;  // in the order they are computed
  Halide::Func output;                  // the pipeline's output Func (maybe a Tuple)
  Halide::Expr rows_per_task;           // parallel grain, chosen by the runtime
  // Optional bool: clamped row taps may be read untested (an idempotent
  // reduction whose every window holds an input tap). Undefined: always test.
  Halide::Expr clamp_safe;
  Halide::Type accumulator_type;        // sets the vector width
  // Run-time conditions worth a separate copy of the whole loop nest, e.g.
  // "Indices are row-major", which avoids a vector division per output.
  std::vector<Halide::Expr> output_specializations;
  // Funcs of one output coordinate that every plane shares (AveragePool's
  // per-axis reciprocal counts): a CPU schedule computes them once per call.
  std::vector<Halide::Func> per_axis_tables;
};

// What one separable reduction computes; where its taps lie is the pool's.
struct TapReduction {
  std::string name;                      // names the Funcs: <name>_rows, <name>_window
  std::vector<Halide::Expr> identity;    // also what padding contributes
  // combine(accumulated, tap value)
  std::function<Halide::Tuple(const Halide::Tuple&, const Halide::Tuple&)> combine;
  // Value of the input tap at (clamped) input coordinates `at`, reduced into
  // the row at stage coordinates `row`.
  std::function<Halide::Tuple(const std::vector<Halide::Expr>& at, const std::vector<Halide::Expr>& row)> row_tap;
  // Value the window stage reduces for the row entry at `x_at`; unset: the
  // row entry itself.
  std::function<Halide::Tuple(const Halide::Func& rows, const std::vector<Halide::Expr>& x_at)> window_tap;
};

// A pool over `input`'s windows, before any reduction is added.
template <typename InputT>
SeparablePool make_separable_pool(const InputT& input, int spatial_rank, const std::vector<WindowDim>& dims,
                                  const Halide::Expr& rows_per_task, const Halide::Type& accumulator) {
  SeparablePool pool;
  pool.spatial_rank = spatial_rank;
  pool.vars = make_pool_vars(spatial_rank, "");
  pool.dims = dims;
  pool.rows_per_task = rows_per_task;
  pool.accumulator_type = accumulator;
  pool.input_extents = input_extents(input, spatial_rank);
  return pool;
}

// Defines rows and window for `reduction` over the pool's windows and appends
// them to pool.stages. Row taps outside the input contribute the identity
// (or, when pool.clamp_safe is defined and true, read the clamped row: the
// caller vouches that the reduction is idempotent).
const SeparableStages& add_separable_reduction(SeparablePool& pool, const TapReduction& reduction);

}  // namespace onnxpool::gen
