// The comparison rules: exact for MaxPool and integers, tolerant for float
// arithmetic, and failure messages that say what differed.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "tensor_compare.h"

namespace onnxpool_runner {
namespace {

template <typename T>
HostTensor make_tensor(int32_t data_type, std::vector<int64_t> shape, std::vector<T> values) {
  HostTensor tensor;
  tensor.data_type = data_type;
  tensor.shape = std::move(shape);
  tensor.bytes.resize(values.size() * sizeof(T));
  std::memcpy(tensor.bytes.data(), values.data(), tensor.bytes.size());
  return tensor;
}

HostTensor floats(std::vector<float> values) {
  const auto count = static_cast<int64_t>(values.size());
  return make_tensor(onnx::TensorProto::FLOAT, {1, 1, count}, std::move(values));
}

const float kNaN = std::numeric_limits<float>::quiet_NaN();

TEST(CompareTensors, ExactMatchesBitsAndAnyNaN) {
  EXPECT_EQ(compare_tensors(floats({1, kNaN, -INFINITY}), floats({1, -kNaN, -INFINITY}),
                            Comparison::kExact),
            "");
  EXPECT_NE(compare_tensors(floats({0.0f}), floats({-0.0f}), Comparison::kExact), "");
  EXPECT_NE(compare_tensors(floats({1.0f}), floats({std::nextafter(1.0f, 2.0f)}), Comparison::kExact),
            "");
  EXPECT_NE(compare_tensors(floats({kNaN}), floats({1.0f}), Comparison::kExact), "");
}

TEST(CompareTensors, TolerantUsesRelativeAndAbsoluteBounds) {
  EXPECT_EQ(compare_tensors(floats({1000.0f}), floats({1000.009f}), Comparison::kTolerant), "");
  EXPECT_NE(compare_tensors(floats({1000.0f}), floats({1000.02f}), Comparison::kTolerant), "");
  EXPECT_EQ(compare_tensors(floats({0.0f}), floats({5e-7f}), Comparison::kTolerant), "");
  EXPECT_NE(compare_tensors(floats({0.0f}), floats({5e-6f}), Comparison::kTolerant), "");
  EXPECT_NE(compare_tensors(floats({INFINITY}), floats({-INFINITY}), Comparison::kTolerant), "");
}

TEST(CompareTensors, SixteenBitFloatsGetAWiderTolerance) {
  // bfloat16 1.0 (0x3f80) against 1.0078125 (0x3f81): one step, within 1e-2.
  const auto one = make_tensor<uint16_t>(onnx::TensorProto::BFLOAT16, {1}, {0x3f80});
  const auto next = make_tensor<uint16_t>(onnx::TensorProto::BFLOAT16, {1}, {0x3f81});
  const auto far = make_tensor<uint16_t>(onnx::TensorProto::BFLOAT16, {1}, {0x3f84});
  EXPECT_EQ(compare_tensors(one, next, Comparison::kTolerant), "");
  EXPECT_NE(compare_tensors(one, far, Comparison::kTolerant), "");
  EXPECT_NE(compare_tensors(one, next, Comparison::kExact), "");
  const auto half_one = make_tensor<uint16_t>(onnx::TensorProto::FLOAT16, {1}, {0x3c00});
  const auto half_next = make_tensor<uint16_t>(onnx::TensorProto::FLOAT16, {1}, {0x3c01});
  EXPECT_EQ(compare_tensors(half_one, half_next, Comparison::kTolerant), "");
}

TEST(CompareTensors, IntegersAreAlwaysExact) {
  const auto a = make_tensor<int64_t>(onnx::TensorProto::INT64, {2}, {4, 9});
  const auto b = make_tensor<int64_t>(onnx::TensorProto::INT64, {2}, {4, 10});
  EXPECT_EQ(compare_tensors(a, a, Comparison::kTolerant), "");
  EXPECT_EQ(compare_tensors(a, b, Comparison::kTolerant),
            "value mismatch at index [1]: expected 9, got 10 (1 of 2 elements differ)");
}

TEST(CompareTensors, MessagesNameTheDifference) {
  const auto expected = make_tensor<float>(onnx::TensorProto::FLOAT, {1, 1, 2, 2}, {1, 2, 3, 4});
  const auto actual = make_tensor<float>(onnx::TensorProto::FLOAT, {1, 1, 2, 2}, {1, 2, 3.5f, 5});
  EXPECT_EQ(compare_tensors(expected, actual, Comparison::kExact),
            "value mismatch at index [0, 0, 1, 0]: expected 3, got 3.5 (2 of 4 elements differ, "
            "exact comparison)");
  const auto reshaped = make_tensor<float>(onnx::TensorProto::FLOAT, {1, 1, 4}, {1, 2, 3, 4});
  EXPECT_EQ(compare_tensors(expected, reshaped, Comparison::kExact),
            "shape mismatch: expected [1, 1, 2, 2], got [1, 1, 4]");
  const auto doubles = make_tensor<double>(onnx::TensorProto::DOUBLE, {1, 1, 2, 2}, {1, 2, 3, 4});
  EXPECT_EQ(compare_tensors(expected, doubles, Comparison::kExact),
            "type mismatch: expected float32, got float64");
}

}  // namespace
}  // namespace onnxpool_runner
