// Plain, obviously-correct pooling references: the oracle every implementation
// is checked against before it is timed, so a misconfigured peer cannot post a
// flattering number.
#pragma once

#include <cstdint>
#include <vector>

#include "shapes.h"

namespace onnxpool_bench {

struct MaxPoolResult {
  std::vector<float> values;     // NCHW
  std::vector<int64_t> indices;  // ONNX Indices: flattened over N, C, H, W (storage_order 0)
};

// ONNX MaxPool on an NCHW input: pads are excluded, ties go to the first
// maximum in scan order.
MaxPoolResult reference_max_pool(const PoolCase& pool_case, const float* input_nchw);

}  // namespace onnxpool_bench
