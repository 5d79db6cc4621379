// Validation of the caller's tensors against what the operator will read and write.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "onnxpool/attributes.h"
#include "onnxpool/status.h"
#include "onnxpool/tensor.h"

namespace onnxpool::detail {

// Known element type and device (CUDA only in a build with CUDA kernels),
// non-null data (unless empty), dims >= 0.
Status check_input(PoolOp op, const char* name, const TensorView& t);
// Also: X's device, exactly `type` and `shape`.
Status check_output(PoolOp op, const char* name, const TensorView& t, const TensorView& X, ElementType type,
                    const std::vector<int64_t>& shape);

std::string shape_string(const std::vector<int64_t>& shape);

}  // namespace onnxpool::detail
