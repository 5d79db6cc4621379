// The run-time window attributes of one spatial dimension, and the index math
// every windowed pooling generator shares.
//
// Dimension order follows Halide: dimension 0 is the fastest-varying (ONNX's
// last spatial axis), dimension `rank` is the plane (n * C + c) axis. The
// runtime resolves auto_pad, pads and ceil_mode; the kernels only see the
// begin pad and derive every tap position from it.
#pragma once

#include <string>
#include <vector>

#include "Halide.h"

namespace onnxpool::gen {

// How many of the `kernel` taps start, start + dilation, ... lie in [lo, hi).
inline Halide::Expr window_taps_within(const Halide::Expr& start, const Halide::Expr& kernel,
                                       const Halide::Expr& dilation, const Halide::Expr& lo, const Halide::Expr& hi) {
  // Halide's division rounds toward -inf for a positive divisor.
  Halide::Expr first = Halide::max((lo - start + dilation - 1) / dilation, 0);
  Halide::Expr last = Halide::min((hi - 1 - start) / dilation, kernel - 1);
  return Halide::max(last - first + 1, 0);
}

struct WindowDim {
  Halide::GeneratorInput<int>* kernel = nullptr;
  Halide::GeneratorInput<int>* stride = nullptr;
  Halide::GeneratorInput<int>* dilation = nullptr;
  Halide::GeneratorInput<int>* pad_begin = nullptr;

  // Input coordinate of tap `r` of the window at output coordinate `o`.
  Halide::Expr tap(const Halide::Expr& o, const Halide::Expr& r) const {
    return o * (*stride) - (*pad_begin) + r * (*dilation);
  }
  // How many taps of the window at output coordinate `o` lie in [lo, hi):
  // AveragePool's divisor along this dimension, computed rather than counted.
  Halide::Expr taps_within(const Halide::Expr& o, const Halide::Expr& lo, const Halide::Expr& hi) const {
    return window_taps_within(o * (*stride) - (*pad_begin), *kernel, *dilation, lo, hi);
  }
  // True when this dimension's attributes equal (k, s, d): the condition a
  // schedule specializes on.
  Halide::Expr is(int k, int s, int d) const {
    return (*kernel) == k && (*stride) == s && (*dilation) == d;
  }
};

// Declares kernel_i, stride_i, dilation_i, pad_begin_i scalar inputs for each
// spatial dimension. Call from a generator's configure().
template <typename GeneratorT>
std::vector<WindowDim> add_window_inputs(GeneratorT* gen, int spatial_rank) {
  std::vector<WindowDim> dims(spatial_rank);
  for (int i = 0; i < spatial_rank; ++i) {
    const std::string suffix = "_" + std::to_string(i);
    dims[i].kernel = gen->template add_input<int>("kernel" + suffix);
    dims[i].stride = gen->template add_input<int>("stride" + suffix);
    dims[i].dilation = gen->template add_input<int>("dilation" + suffix);
    dims[i].pad_begin = gen->template add_input<int>("pad_begin" + suffix);
  }
  return dims;
}

// Extents of an input buffer by Halide dimension, plane last.
template <typename InputT>
std::vector<Halide::Expr> input_extents(const InputT& input, int spatial_rank) {
  std::vector<Halide::Expr> extents;
  for (int i = 0; i <= spatial_rank; ++i) extents.push_back(input.dim(i).extent());
  return extents;
}

// Estimates for a pool's input and output: ResNet's stem, 64 planes of
// 112 x 112 (x 16 frames in 3D) halved by a 3x3/s2 window.
template <typename InputT, typename OutputT>
void set_pool_estimates(InputT& input, OutputT& output, int spatial_rank) {
  static const int kExtents[] = {112, 112, 16};
  Halide::Region input_region, output_region;
  for (int i = 0; i < spatial_rank; ++i) {
    input_region.push_back({0, kExtents[i]});
    output_region.push_back({0, kExtents[i] / 2});
  }
  input_region.push_back({0, 64});
  output_region.push_back({0, 64});
  input.set_estimates(input_region);
  output.set_estimates(output_region);
}

// Typical model shapes, so every generator can run under an autoscheduler.
inline void set_window_estimates(std::vector<WindowDim>& dims) {
  for (auto& d : dims) {
    d.kernel->set_estimate(3);
    d.stride->set_estimate(2);
    d.dilation->set_estimate(1);
    d.pad_begin->set_estimate(1);
  }
}

// Vars named for stmt dumps: x (fastest spatial), y, z, then the plane.
inline std::vector<Halide::Var> make_pool_vars(int spatial_rank, const std::string& prefix) {
  static const char* names[] = {"x", "y", "z"};
  std::vector<Halide::Var> vars;
  for (int i = 0; i < spatial_rank; ++i) vars.emplace_back(prefix + names[i]);
  vars.emplace_back(prefix + "plane");
  return vars;
}

}  // namespace onnxpool::gen
