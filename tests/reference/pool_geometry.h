// Window geometry of the windowed pooling operators, computed straight from
// the ONNX opset-22 rules (see docs/semantics.md). Deliberately shares no
// code with the library: it is what the library's shape inference is checked
// against.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace onnxpool_test {

// ONNX attributes as the reference reads them. An empty vector means the
// attribute is absent and takes its ONNX default.
struct PoolSpec {
  std::vector<int64_t> kernel_shape;
  std::vector<int64_t> strides;
  std::vector<int64_t> dilations;
  std::vector<int64_t> pads;  // [x1_begin, x2_begin, ..., x1_end, x2_end, ...]
  std::string auto_pad = "NOTSET";
  bool ceil_mode = false;
  int64_t storage_order = 0;       // MaxPool Indices
  bool count_include_pad = false;  // AveragePool
  int64_t p = 2;                   // LpPool

  std::string to_string() const;
};

// Per spatial axis, everything resolved: defaults filled in, auto_pad turned
// into explicit pads, the output extent computed.
struct WindowGeometry {
  std::vector<int64_t> input;
  std::vector<int64_t> kernel;
  std::vector<int64_t> strides;
  std::vector<int64_t> dilations;
  std::vector<int64_t> pad_begin;
  std::vector<int64_t> pad_end;
  std::vector<int64_t> output;

  size_t rank() const { return input.size(); }
  // Extent covered by one window: (k - 1) * d + 1.
  int64_t dilated_kernel(size_t axis) const;
  // pad_begin followed by pad_end, the order of the ONNX `pads` attribute.
  std::vector<int64_t> onnx_pads() const;
};

// Throws std::invalid_argument for a spec that ONNX rejects for this input
// (the reference is only an oracle for valid nodes).
WindowGeometry window_geometry(const PoolSpec& spec, const std::vector<int64_t>& input_spatial);

}  // namespace onnxpool_test
