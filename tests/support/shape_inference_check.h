// The shape-inference half of every kernel-vs-reference check: what the
// library promises before the output is allocated.
#pragma once

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "onnxpool/attributes.h"
#include "reference/pool_geometry.h"

namespace onnxpool_test {

// infer_output_shape gives `expected_shape` for an X of `x_shape` (stored in
// *shape), and, when `check_pads` (windowed operators), resolve_pads gives
// the reference geometry's pads for `spec`.
testing::AssertionResult shape_inference_matches(const onnxpool::PoolAttributes& attributes, const PoolSpec& spec,
                                                 const std::vector<int64_t>& x_shape,
                                                 const std::vector<int64_t>& expected_shape, bool check_pads,
                                                 std::vector<int64_t>* shape);

}  // namespace onnxpool_test
