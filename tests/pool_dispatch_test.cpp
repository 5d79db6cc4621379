// onnxpool::pool runs whichever operator the attributes name: each of the six,
// checked against the reference (so that a mix-up, say AveragePool's node run
// as LpPool, shows), MaxPool with and without Indices.
#include <gtest/gtest.h>

#include "onnxpool/pooling.h"
#include "reference/reference_pooling.h"
#include "support/float_type_info.h"
#include "support/maxpool_check.h"
#include "support/pool_check.h"
#include "support/tensor_compare.h"
#include "support/test_settings.h"

namespace onnxpool_test {
namespace {

using onnxpool::PoolOp;

constexpr int kCasesPerOperator = 12;
constexpr uint64_t kStreamBase = 8800;

TEST(PoolDispatcher, RunsTheSumAndGlobalOperatorsTheAttributesName) {
  for (PoolOp op : sum_and_global_ops()) {
    BatchOutcome outcome;
    const int count = scaled_case_count(kCasesPerOperator);
    for (int index = 0; index < count; ++index) {
      const std::vector<int> ranks = op == PoolOp::kAveragePool || op == PoolOp::kLpPool ? std::vector<int>{1, 2, 3}
                                                                                         : std::vector<int>{1, 2, 3, 4};
      PoolCase c = pool_batch_case(kStreamBase + static_cast<uint64_t>(op), index, op, float_types(), ranks);
      c.through_dispatcher = true;
      const testing::AssertionResult result = pool_matches_reference(c);
      ++outcome.cases_run;
      if (!result) outcome.add_failure("[case " + std::to_string(index) + "] " + c.describe() + "\n  " + result.message());
    }
    EXPECT_TRUE(outcome.failures.empty()) << onnxpool::op_name(op) << ": " << outcome.report();
  }
}

TEST(PoolDispatcher, RunsMaxPoolWithAndWithoutIndices) {
  const int count = scaled_case_count(kCasesPerOperator);
  for (int index = 0; index < count; ++index) {
    const MaxPoolCase c = batch_case(kStreamBase + 100, index, max_pool_types(), {1, 2, 3});
    onnxpool::PoolAttributes attributes;
    onnxpool::Status status = onnxpool::PoolAttributes::parse(PoolOp::kMaxPool, c.attributes, &attributes);
    ASSERT_TRUE(status.is_ok()) << status.message();
    const MaxPoolResult expected = reference_max_pool(c.spec, c.X);
    HostTensor Y(c.X.type(), expected.Y.shape());
    HostTensor Indices(ElementType::kInt64, expected.Y.shape());
    Y.fill_bytes(0xA5);
    Indices.fill_bytes(0xA5);
    const onnxpool::TensorView indices_view = Indices.view();
    status = onnxpool::pool(attributes, c.X.view(), Y.view(), c.with_indices ? &indices_view : nullptr);
    ASSERT_TRUE(status.is_ok()) << c.describe() << "\n" << status.message();
    EXPECT_TRUE(tensors_identical("Y", expected.Y, Y)) << c.describe();
    if (c.with_indices) {
      EXPECT_TRUE(tensors_identical("Indices", expected.Indices, Indices)) << c.describe();
    }
  }
}

}  // namespace
}  // namespace onnxpool_test
