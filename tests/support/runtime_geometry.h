// For the white-box tests of the runtime's kernel choices (the test target
// must see runtime/): the geometry the runtime itself computes for X's shape
// under a node's attributes, which its *_suits() decisions read.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "onnxpool/attributes.h"
#include "onnxpool/pooling.h"
#include "plan/window_geometry.h"

namespace onnxpool_test {

inline onnxpool::detail::WindowGeometry runtime_geometry(onnxpool::PoolOp op, const onnxpool::Attributes& attributes,
                                                         const std::vector<int64_t>& shape) {
  onnxpool::PoolAttributes parsed;
  EXPECT_TRUE(onnxpool::PoolAttributes::parse(op, attributes, &parsed));
  onnxpool::detail::WindowGeometry g;
  EXPECT_TRUE(onnxpool::detail::compute_window_geometry(parsed, shape, &g));
  return g;
}

}  // namespace onnxpool_test
