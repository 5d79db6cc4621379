// Validation of the caller's tensors against what the operator will read and write.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "onnxpool/attributes.h"
#include "onnxpool/status.h"
#include "onnxpool/tensor.h"
#include "plan/window_geometry.h"

namespace onnxpool::detail {

// Known element type and device (CUDA only in a build with CUDA kernels),
// dims >= 0, and with `needs_data` non-null data (unless empty).
Status check_input(PoolOp op, const char* name, const TensorView& t, bool needs_data = true);
// Also: X's device, exactly `type` and `shape`.
Status check_output(PoolOp op, const char* name, const TensorView& t, const TensorView& X, ElementType type,
                    const ShapeList& shape);

// "host" or "CUDA device", as messages name where a tensor lives.
const char* device_name(Device device);

std::string shape_string(const int64_t* begin, const int64_t* end);
inline std::string shape_string(const std::vector<int64_t>& shape) {
  return shape_string(shape.data(), shape.data() + shape.size());
}
inline std::string shape_string(const ShapeList& shape) { return shape_string(shape.begin(), shape.end()); }

}  // namespace onnxpool::detail
