// PoolOperator (onnxpool/pool_operator.h): a created operator gives the
// one-shot function's bytes on every run, refuses tensors unlike those it
// was created for with a message naming the tensor, and describes its plan.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "onnxpool/onnxpool.h"
#include "support/maxpool_cases.h"
#include "support/pool_cases.h"
#include "support/random.h"
#include "support/status_checks.h"
#include "support/test_settings.h"

namespace onnxpool_test {
namespace {

using onnxpool::PoolOp;
using onnxpool::PoolOperator;
using onnxpool::Status;
using onnxpool::StatusCode;

onnxpool::PoolAttributes parsed(PoolOp op, const onnxpool::Attributes& raw) {
  onnxpool::PoolAttributes attributes;
  const Status s = onnxpool::PoolAttributes::parse(op, raw, &attributes);
  EXPECT_TRUE(s.is_ok()) << s.message();
  return attributes;
}

// Runs the node one-shot and through a created operator (three times, into
// Ys pre-filled with different bytes) and expects the same bytes each time.
void expect_operator_matches_one_shot(const onnxpool::PoolAttributes& attributes, const HostTensor& X,
                                      bool with_indices, const std::string& what) {
  std::vector<int64_t> y_shape;
  ASSERT_TRUE(onnxpool::infer_output_shape(attributes, X.shape(), &y_shape)) << what;
  HostTensor Y(X.type(), y_shape), I(ElementType::kInt64, y_shape);
  Y.fill_bytes(0x5A);
  I.fill_bytes(0x5A);
  const onnxpool::TensorView i_view = I.view();
  const Status one_shot = onnxpool::pool(attributes, X.view(), Y.view(), with_indices ? &i_view : nullptr);
  ASSERT_TRUE(one_shot) << what << ": " << one_shot.message();

  PoolOperator op;
  const Status created = PoolOperator::create(attributes, X.shape(), X.type(), &op);
  ASSERT_TRUE(created) << what << ": " << created.message();
  EXPECT_EQ(op.output_shape(), y_shape) << what;
  for (uint8_t fill : {0x00, 0xA5, 0xFF}) {
    HostTensor Y2(X.type(), y_shape), I2(ElementType::kInt64, y_shape);
    Y2.fill_bytes(fill);
    I2.fill_bytes(fill);
    const onnxpool::TensorView i2_view = I2.view();
    const Status ran = op.run(X.view(), Y2.view(), with_indices ? &i2_view : nullptr);
    ASSERT_TRUE(ran) << what << ": " << ran.message();
    EXPECT_TRUE(Y2.same_bytes(Y)) << what << " (Y, fill " << int{fill} << ")";
    if (with_indices) {
      EXPECT_TRUE(I2.same_bytes(I)) << what << " (Indices)";
    }
  }
}

TEST(PoolOperator, RunsGiveTheOneShotResultForEveryOperator) {
  Random random(derive_seed(test_seed(), 9400, 0));
  for (int i = 0; i < 24; ++i) {
    const ElementType type = i % 3 == 0 ? ElementType::kFloat16 : ElementType::kFloat32;
    const MaxPoolCase m = random_max_pool_case(random, type, 1 + i % 3);
    expect_operator_matches_one_shot(parsed(PoolOp::kMaxPool, m.attributes), m.X, m.with_indices, m.describe());
    for (PoolOp op : sum_and_global_ops()) {
      const PoolCase c = random_pool_case(random, op, type, 1 + i % 3);
      expect_operator_matches_one_shot(parsed(op, c.attributes), c.X, false, c.describe());
    }
  }
}

TEST(PoolOperator, RefusesTensorsUnlikeTheOnesItWasCreatedFor) {
  onnxpool::Attributes raw;
  raw.set("kernel_shape", std::vector<int64_t>{3, 3}).set("strides", std::vector<int64_t>{2, 2});
  const onnxpool::PoolAttributes attributes = parsed(PoolOp::kMaxPool, raw);
  PoolOperator op;
  ASSERT_TRUE(PoolOperator::create(attributes, {1, 4, 9, 9}, ElementType::kFloat32, &op));
  ASSERT_EQ(op.output_shape(), (std::vector<int64_t>{1, 4, 4, 4}));
  HostTensor X(ElementType::kFloat32, {1, 4, 9, 9}), Y(ElementType::kFloat32, {1, 4, 4, 4});
  HostTensor wider(ElementType::kFloat32, {1, 4, 9, 11}), doubles(ElementType::kFloat64, {1, 4, 9, 9});
  HostTensor small_y(ElementType::kFloat32, {1, 4, 3, 4});
  const auto refused = [](const Status& s, const char* tensor) {
    return s.code() == StatusCode::kInvalidArgument && message_names(s.message(), tensor);
  };
  EXPECT_TRUE(refused(op.run(wider.view(), Y.view()), "X")) << op.run(wider.view(), Y.view()).message();
  EXPECT_TRUE(refused(op.run(doubles.view(), Y.view()), "X"));
  EXPECT_TRUE(refused(op.run(X.view(), small_y.view()), "Y"));
  const onnxpool::TensorView null_x(nullptr, ElementType::kFloat32, {1, 4, 9, 9});
  EXPECT_TRUE(refused(op.run(null_x, Y.view()), "X"));
  HostTensor wrong_indices(ElementType::kFloat32, {1, 4, 4, 4});
  const onnxpool::TensorView wrong_view = wrong_indices.view();
  EXPECT_TRUE(refused(op.run(X.view(), Y.view(), &wrong_view), "Indices"));
  EXPECT_TRUE(op.run(X.view(), Y.view()));
}

TEST(PoolOperator, IndicesOnlyForMaxPool) {
  onnxpool::Attributes raw;
  raw.set("kernel_shape", std::vector<int64_t>{2, 2});
  PoolOperator op;
  ASSERT_TRUE(PoolOperator::create(parsed(PoolOp::kAveragePool, raw), {1, 2, 4, 4}, ElementType::kFloat32, &op));
  HostTensor X(ElementType::kFloat32, {1, 2, 4, 4}), Y(ElementType::kFloat32, {1, 2, 3, 3});
  HostTensor I(ElementType::kInt64, {1, 2, 3, 3});
  const onnxpool::TensorView i_view = I.view();
  const Status s = op.run(X.view(), Y.view(), &i_view);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(message_names(s.message(), "Indices")) << s.message();
}

TEST(PoolOperator, AFailedCreateLeavesTheOperatorAsItWas) {
  onnxpool::Attributes raw;
  raw.set("kernel_shape", std::vector<int64_t>{3, 3});
  const onnxpool::PoolAttributes attributes = parsed(PoolOp::kMaxPool, raw);
  PoolOperator op;
  EXPECT_FALSE(op.created());
  HostTensor X(ElementType::kFloat32, {1, 1, 3, 3}), Y(ElementType::kFloat32, {1, 1, 1, 1});
  EXPECT_EQ(op.run(X.view(), Y.view()).code(), StatusCode::kInvalidArgument);
  // kernel_shape has 2 axes, X 3 spatial ones.
  const Status bad = PoolOperator::create(attributes, {1, 1, 3, 3, 3}, ElementType::kFloat32, &op);
  EXPECT_EQ(bad.code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(message_names(bad.message(), "kernel_shape")) << bad.message();
  EXPECT_FALSE(op.created());
  ASSERT_TRUE(PoolOperator::create(attributes, {1, 1, 3, 3}, ElementType::kFloat32, &op));
  const Status unsupported = PoolOperator::create(parsed(PoolOp::kMaxPool, raw), {1, 1, 3, 3}, ElementType::kInt64, &op);
  EXPECT_EQ(unsupported.code(), StatusCode::kUnsupported) << unsupported.message();
  EXPECT_TRUE(op.created());
  EXPECT_EQ(op.output_shape(), (std::vector<int64_t>{1, 1, 1, 1}));
  EXPECT_EQ(PoolOperator::create(attributes, {1, 1, 3, 3}, ElementType::kFloat32, nullptr).code(),
            StatusCode::kInvalidArgument);
}

TEST(PoolOperator, MovesAndDescribesItsPlan) {
  onnxpool::Attributes raw;
  raw.set("kernel_shape", std::vector<int64_t>{3, 3}).set("strides", std::vector<int64_t>{2, 2});
  PoolOperator op;
  ASSERT_TRUE(PoolOperator::create(parsed(PoolOp::kMaxPool, raw), {1, 8, 15, 15}, ElementType::kFloat32, &op));
  const std::string words = op.describe();
  for (const char* part : {"MaxPool", "float32", "[1, 8, 7, 7]", "route: whole", "kernel: onnxpool_maxpool_float32_2d",
                           "target: cpu", "threads: ", "flat-plane declined", "halving declined", "separable accepted",
                           "with Indices:", "separable with Indices accepted"}) {
    EXPECT_NE(words.find(part), std::string::npos) << part << " in: " << words;
  }
  PoolOperator moved = std::move(op);
  EXPECT_FALSE(op.created());  // NOLINT(bugprone-use-after-move): moved-from state is specified
  EXPECT_EQ(op.describe(), "PoolOperator (not created)");
  EXPECT_EQ(moved.describe(), words);
  HostTensor X(ElementType::kFloat32, {1, 8, 15, 15}), Y(ElementType::kFloat32, {1, 8, 7, 7});
  EXPECT_TRUE(moved.run(X.view(), Y.view()));
}

}  // namespace
}  // namespace onnxpool_test
