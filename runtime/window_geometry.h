// The one place the runtime does ONNX's output-size and padding arithmetic
// (design.md §4): auto_pad, asymmetric pads, ceil_mode's reduce-by-one rule.
#pragma once

#include <cstdint>
#include <vector>

#include "onnxpool/attributes.h"
#include "onnxpool/status.h"

namespace onnxpool::detail {

struct AxisWindow {
  int64_t input = 0;   // input extent
  int64_t output = 0;  // output extent
  int64_t kernel = 1, stride = 1, dilation = 1;
  int64_t pad_begin = 0, pad_end = 0;
};

struct WindowGeometry {
  int64_t batch = 0, channels = 0;
  // ONNX order: first spatial axis first. What the kernels run: the same
  // outputs, but without the taps that are padding for every window, so a
  // window's kernel and pads may be smaller than the attributes say.
  std::vector<AxisWindow> axes;
  std::vector<int64_t> onnx_pads;  // the pads ONNX resolves (resolve_pads), begin then end
  std::vector<int64_t> output_shape;

  int64_t planes() const { return batch * channels; }
  int64_t input_plane_size() const;
  int64_t output_plane_size() const;
};

// Validates `input_shape` against `attributes` and fills `geometry`. Global
// operators get one window covering each whole axis.
Status compute_window_geometry(const PoolAttributes& attributes,
                               const std::vector<int64_t>& input_shape, WindowGeometry* geometry);

}  // namespace onnxpool::detail
