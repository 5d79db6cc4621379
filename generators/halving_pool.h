// 2D pools whose windows are 2x2 with stride 2, no padding and no dilation,
// and whose output is floor(input / 2) on both axes (VGG's and U-Net's
// downsampling): every window lies inside the input, so each output reads
// its four taps straight from the input and reduces them in registers.
//
// The separable pipeline (separable_pool.h) serves any window by storing a
// padded row buffer and reading it back; for these windows that store and
// reload, and the half-vector steps of 56-wide rows, were most of the time.
// With the taps read directly, Halide loads two whole vectors per input row
// and deinterleaves them (even and odd x) with two permutes, and no tap
// needs a bounds test. The runtime picks these kernels (runtime/halving.h).
#pragma once

#include <vector>

#include "Halide.h"

namespace onnxpool::gen {

struct HalvingPool {
  Halide::Var x{"x"}, y{"y"}, plane{"plane"};
  Halide::Expr rows_per_task;     // parallel grain, chosen by the runtime
  Halide::Type accumulator_type;  // sets the vector width
  Halide::Func output;            // output(x, y, plane)
};

// The window of output (x, y, plane) as four taps of `input` (x, y, plane),
// in scan order: (2x, 2y), (2x + 1, 2y), (2x, 2y + 1), (2x + 1, 2y + 1).
template <typename InputT>
std::vector<Halide::Expr> halving_taps(const InputT& input, const HalvingPool& pool) {
  std::vector<Halide::Expr> taps;
  for (int dy = 0; dy < 2; ++dy) {
    for (int dx = 0; dx < 2; ++dx) taps.push_back(input(2 * pool.x + dx, 2 * pool.y + dy, pool.plane));
  }
  return taps;
}

// Estimates for the autoschedulers: VGG's 128 planes of 56 x 56.
template <typename InputT, typename OutputT>
void set_halving_estimates(InputT& input, OutputT& output, Halide::GeneratorInput<int>& rows_per_task) {
  input.set_estimates({{0, 56}, {0, 56}, {0, 128}});
  output.set_estimates({{0, 28}, {0, 28}, {0, 128}});
  rows_per_task.set_estimate(28);
}

}  // namespace onnxpool::gen
