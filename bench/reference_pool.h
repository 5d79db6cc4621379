// Plain, obviously-correct pooling references: the oracle every implementation
// is checked against before it is timed, so a misconfigured peer cannot post a
// flattering number.
#pragma once

#include <cstdint>
#include <vector>

#include "pool_node.h"
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

// The same semantics for any node of the case strings (pool_node.h): 1-3
// spatial axes (global ones: any), dilations, the node's count_include_pad
// (taps inside [-pad_begin, in + pad_end), so not ceil_mode's extension) and
// p. A window without a tap inside the input is -inf for max and 0/0 = NaN
// for average, as in ONNX. Values only, channels-first, rounded once from
// double. bench/peers_test.cpp checks it against tests/reference.
std::vector<float> reference_pool_node(const PoolNode& node, const float* input_nchw);

}  // namespace onnxpool_bench
