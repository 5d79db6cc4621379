// One pooling node as the C++ peers and the N-D reference take it: any number
// of spatial axes, every attribute resolved (defaults filled in, auto_pad
// turned into pads, ceil_mode folded into the output shape). The suite's 2D
// PoolCase converts to one; so does a case string (case_pool_node.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "shapes.h"

namespace onnxpool_bench {

struct PoolNode {
  PoolOpSpec op;
  bool count_include_pad = kCountIncludePad;  // AveragePool
  int64_t p = kLpP;                           // LpPool, GlobalLpPool
  std::vector<int64_t> input;                 // N, C, D1, ...
  std::vector<int64_t> output;                // N, C, O1, ... (ONNX's, ceil_mode included)
  // One entry per spatial axis; ONNX's values (dilation 1: none). A global
  // node's window is the whole input: kernel = its extent, stride 1, no pads.
  std::vector<int64_t> kernel, strides, dilations, pad_begin, pad_end;

  size_t spatial_rank() const { return input.size() - 2; }
  int64_t input_elements() const;
  int64_t output_elements() const;
  bool dilated() const;
  bool has_pads() const;
  // (kernel - 1) * dilation + 1: the extent one window covers on `axis`.
  int64_t window_extent(size_t axis) const;
  // The end pad that makes the floor formula every peer uses,
  // (in + begin + end - window) / stride + 1, give ONNX's output extent: the
  // node's own end pad, plus what ceil_mode adds past it (ceil_extension).
  int64_t floor_mode_pad_end(size_t axis) const;
  int64_t ceil_extension(size_t axis) const { return floor_mode_pad_end(axis) - pad_end[axis]; }
};

// The suite's 2D case under `op` (count_include_pad kCountIncludePad, p kLpP).
PoolNode pool_node(const PoolOpSpec& op, const PoolCase& pool_case);

}  // namespace onnxpool_bench
