// The one place the runtime does ONNX's output-size and padding arithmetic
// (docs/semantics.md): auto_pad, asymmetric pads, ceil_mode's reduce-by-one rule.
#pragma once

#include <cstdint>
#include <vector>

#include "platform/inline_vector.h"
#include "onnxpool/attributes.h"
#include "onnxpool/status.h"

namespace onnxpool::detail {

struct AxisWindow {
  int64_t input = 0;   // input extent
  int64_t output = 0;  // output extent
  int64_t kernel = 1, stride = 1, dilation = 1;
  int64_t pad_begin = 0, pad_end = 0;
};

// Spatial axes the windowed operators take (find_operator_kernel refuses more).
constexpr int kMaxWindowedRank = 3;
// Spatial axes a geometry holds without a heap allocation: every windowed
// call, and global pools up to rank 8 (past it the lists move to the heap).
constexpr size_t kInlineSpatialAxes = 6;

// N, C, then one extent per spatial axis.
using ShapeList = InlineVector<int64_t, 2 + kInlineSpatialAxes>;

struct WindowGeometry {
  int64_t batch = 0, channels = 0;
  // ONNX order: first spatial axis first. What the kernels run: the same
  // outputs, but without the taps that are padding for every window, so a
  // window's kernel and pads may be smaller than the attributes say.
  InlineVector<AxisWindow, kInlineSpatialAxes> axes;
  InlineVector<int64_t, 2 * kInlineSpatialAxes> onnx_pads;  // the pads ONNX resolves (resolve_pads), begin then end
  ShapeList output_shape;

  int64_t planes() const { return batch * channels; }
  int64_t input_plane_size() const;
  int64_t output_plane_size() const;
};

// Positions a windowed kernel buffers per row along the axis `a` when it is
// the row axis (separable_pool.cpp): from the first window's first tap,
// padding included, to the input's end or the last window's last tap,
// whichever is further. More than the windows cover where they all lie
// before the input (AveragePool with count_include_pad = 1 keeps such
// windows' padding taps). 0 without outputs.
__int128 row_buffer_positions(const AxisWindow& a);

// Entries a windowed kernel writes to row buffers over all of g's planes:
// one row per output row (every output position but the last axis's) of
// row_buffer_positions(last axis). Padding positions among them cost about
// what a tap does, so calls whose windows lie far in the padding are
// charged for them (window_segments.h).
__int128 row_buffer_entries(const WindowGeometry& g);

// True when one row of that buffer holds padding and passes 2^31 bytes at
// 8 bytes an entry: more than a kernel may allocate. Such calls run in
// segments (window_segments.h) or, along a 1D call's only axis, in pieces
// (large_planes.h); what neither can cut is kUnsupported.
bool row_buffer_too_large(const AxisWindow& row_axis);

// Validates `input_shape` against `attributes` and fills `geometry` (left
// partly filled on an error). Global operators get one window covering each
// whole axis.
Status compute_window_geometry(const PoolAttributes& attributes,
                               const std::vector<int64_t>& input_shape, WindowGeometry* geometry);

}  // namespace onnxpool::detail
