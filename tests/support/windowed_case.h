// One case of any windowed operator built from a spec: MaxPool's (inputs
// with ties and special values, with or without Indices) or a summing
// operator's (fill_for_sum_pool's values), for tests that take each
// operator through the same steps (the planner's white-box tests).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "onnxpool/attributes.h"
#include "support/maxpool_cases.h"
#include "support/pool_cases.h"
#include "support/random.h"

namespace onnxpool_test {

struct WindowedCase {
  onnxpool::PoolOp op = onnxpool::PoolOp::kMaxPool;
  MaxPoolCase max_case;  // MaxPool
  PoolCase pool_case;    // AveragePool and LpPool

  const onnxpool::Attributes& attributes() const;
  std::string describe() const;
  // The library against the reference (maxpool_check.h, pool_check.h).
  testing::AssertionResult matches_reference() const;
};

WindowedCase make_windowed_case(Random& random, onnxpool::PoolOp op, ElementType type,
                                const std::vector<int64_t>& shape, const PoolSpec& spec, bool with_indices = false);

}  // namespace onnxpool_test
