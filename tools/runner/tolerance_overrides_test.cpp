// The per-case tolerance overrides: only the listed case is judged more
// loosely, only as loosely as its data needs, and never an exact comparison.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "tensor_compare.h"
#include "tolerance_overrides.h"

namespace onnxpool_runner {
namespace {

HostTensor floats(std::vector<float> values) {
  HostTensor tensor;
  tensor.data_type = onnx::TensorProto::FLOAT;
  tensor.shape = {1, static_cast<int64_t>(values.size()), 1, 1};
  tensor.bytes.resize(values.size() * sizeof(float));
  std::memcpy(tensor.bytes.data(), values.data(), tensor.bytes.size());
  return tensor;
}

constexpr const char* kRoundedCase = "test_averagepool_2d_ceil_last_window_starts_on_pad";

TEST(ToleranceOverrides, OnlyTheListedCaseHasOne) {
  ASSERT_NE(find_tolerance_override(kRoundedCase), nullptr);
  EXPECT_EQ(find_tolerance_override("test_averagepool_2d_ceil"), nullptr);
  EXPECT_EQ(find_tolerance_override(std::string(kRoundedCase) + "_copy"), nullptr);
  EXPECT_EQ(find_tolerance_override(""), nullptr);
}

TEST(ToleranceOverrides, RoundedAveragePoolDataNeedsItAndPassesWithIt) {
  // The published expectation, and the means of its inputs' 3x3 windows
  // (count_include_pad = 1: nine taps each) rounded to float32.
  const HostTensor published = floats({0.1511f, 0.2841f, 0.3572f});
  const HostTensor exact = floats({1.3595f / 9, 2.5564f / 9, 3.2150f / 9});
  const Tolerance* wider = &find_tolerance_override(kRoundedCase)->tolerance;
  EXPECT_NE(compare_tensors(published, exact, Comparison::kTolerant), "");
  EXPECT_EQ(compare_tensors(published, exact, Comparison::kTolerant, wider), "");
  // Still tight enough to catch a wrong divisor (the 4 real taps instead of 9).
  const HostTensor wrong_divisor = floats({1.3595f / 4, 2.5564f / 4, 3.2150f / 4});
  EXPECT_NE(compare_tensors(published, wrong_divisor, Comparison::kTolerant, wider), "");
  // And off by more than the rounding (one step in the third decimal).
  EXPECT_NE(compare_tensors(published, floats({0.1521f, 0.2841f, 0.3572f}),
                            Comparison::kTolerant, wider),
            "");
}

TEST(ToleranceOverrides, NeverLoosenAnExactComparison) {
  const Tolerance wide{1.0, 1.0};
  EXPECT_NE(compare_tensors(floats({1.0f}), floats({1.5f}), Comparison::kExact, &wide), "");
}

}  // namespace
}  // namespace onnxpool_runner
