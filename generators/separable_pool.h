// The shape every windowed pooling algorithm shares, handed to a schedule.
//
// A window reduction is separable: first reduce along every spatial axis but
// the fastest (`rows`: one value per x, padding included, per output row),
// then reduce along x (`window`). No stage clamps a vector index, so no lane
// gathers; the padding lives in the row buffer (design.md §3 and §6).
#pragma once

#include <vector>

#include "Halide.h"
#include "window_params.h"

namespace onnxpool::gen {

struct SeparablePool {
  int spatial_rank = 0;
  std::vector<Halide::Var> vars;  // x, [y, [z,]] plane: output (and stage) coordinates
  Halide::Func rows;              // update 0 reduces the input into the padded row
  Halide::RDom taps;              // taps[0]: input x; taps[1..]: the row taps
  Halide::Func window;
  Halide::RDom x_taps;
  Halide::Func output;            // the pipeline's output Func (maybe a Tuple)
  std::vector<WindowDim> dims;
  Halide::Expr rows_per_task;     // parallel grain, chosen by the runtime
  Halide::Expr clamp_safe;        // bool: clamped row taps may be read untested
  Halide::Type accumulator_type;  // sets the vector width
  // Run-time conditions worth a separate copy of the whole loop nest, e.g.
  // "Indices are row-major", which avoids a vector division per output.
  std::vector<Halide::Expr> output_specializations;
};

}  // namespace onnxpool::gen
