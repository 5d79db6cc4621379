// Plain, obviously-correct pooling references: the oracle every implementation
// is checked against before it is timed, so a misconfigured peer cannot post a
// flattering number.
#pragma once

#include <cstdint>
#include <vector>

#include "shapes.h"

namespace onnxpool_bench {

struct PoolResult {
  std::vector<float> values;     // NCHW
  std::vector<int64_t> indices;  // MaxPool only: ONNX Indices, flattened over N, C, H, W
                                 // (storage_order 0); empty for the other operators
};

// ONNX MaxPool on an NCHW input: pads are excluded, ties go to the first
// maximum in scan order.
PoolResult reference_max_pool(const PoolCase& pool_case, const float* input_nchw);

// Any of the six operators over `pool_case`'s window (global ones: the whole
// plane), following onnxpool's semantics (include/onnxpool/pooling.h):
//   max      as reference_max_pool (with Indices)
//   average  sum over the taps inside the input / their count (kCountIncludePad
//            false) or / the taps inside the padded input (true)
//   lp       (sum over the taps inside the input of |x|^kLpP)^(1/kLpP)
// Sums are taken in double, so the reference is the exact result rounded once.
PoolResult reference_pool(const PoolOpSpec& op, const PoolCase& pool_case,
                          const float* input_nchw);

}  // namespace onnxpool_bench
