#include "support/windowed_case.h"

#include <utility>

#include "support/maxpool_check.h"
#include "support/pool_check.h"
#include "support/value_fills.h"

namespace onnxpool_test {

const onnxpool::Attributes& WindowedCase::attributes() const {
  return op == onnxpool::PoolOp::kMaxPool ? max_case.attributes : pool_case.attributes;
}

std::string WindowedCase::describe() const {
  return op == onnxpool::PoolOp::kMaxPool ? max_case.describe() : pool_case.describe();
}

testing::AssertionResult WindowedCase::matches_reference() const {
  return op == onnxpool::PoolOp::kMaxPool ? library_matches_reference(max_case) : pool_matches_reference(pool_case);
}

WindowedCase make_windowed_case(Random& random, onnxpool::PoolOp op, ElementType type,
                                const std::vector<int64_t>& shape, const PoolSpec& spec, bool with_indices) {
  WindowedCase c;
  c.op = op;
  if (op == onnxpool::PoolOp::kMaxPool) {
    HostTensor X(type, shape);
    fill_with_ties(random, &X, 0.1);
    c.max_case = make_max_pool_case(spec, std::move(X), with_indices);
  } else {
    c.pool_case = make_filled_sum_pool_case(random, op, spec, HostTensor(type, shape));
  }
  return c;
}

}  // namespace onnxpool_test
