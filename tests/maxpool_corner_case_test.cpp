// The MaxPool corner cases of docs/semantics.md, one named test each, with
// the expected output written out by hand; then the shapes the kernels
// specialise for, at widths that leave every kind of vector tail.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "reference/reference_pooling.h"
#include "support/literal_tensors.h"
#include "support/maxpool_check.h"
#include "support/pool_cases.h"
#include "support/test_settings.h"

namespace onnxpool_test {
namespace {

using Ints = std::vector<int64_t>;
constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

const std::vector<ElementType> kFloatTypes{ElementType::kFloat32, ElementType::kFloat16, ElementType::kBFloat16,
                                           ElementType::kFloat64};

PoolSpec spec(Ints kernel, Ints strides = {}, Ints pads = {}) {
  PoolSpec s;
  s.kernel_shape = std::move(kernel);
  s.strides = std::move(strides);
  s.pads = std::move(pads);
  return s;
}

Ints indices_of(const HostTensor& t) {
  Ints indices;
  for (int64_t i = 0; i < t.size(); ++i) indices.push_back(t.get_int64(i));
  return indices;
}

// Runs the library; fails the test when it refuses the node.
MaxPoolResult run(const PoolSpec& s, const HostTensor& X) {
  MaxPoolResult result;
  const onnxpool::Status status = library_max_pool(make_max_pool_case(s, X, /*with_indices=*/true), &result);
  EXPECT_TRUE(status.is_ok()) << status.message();
  return result;
}

Ints library_pads(const PoolSpec& s, const Ints& input_shape) {
  onnxpool::PoolAttributes attributes;
  Ints pads;
  onnxpool::Status status = onnxpool::PoolAttributes::parse(onnxpool::PoolOp::kMaxPool, max_pool_attributes(s), &attributes);
  EXPECT_TRUE(status.is_ok()) << status.message();
  status = onnxpool::resolve_pads(attributes, input_shape, &pads);
  EXPECT_TRUE(status.is_ok()) << status.message();
  return pads;
}

TEST(MaxPoolCorners, SameLowerPutsTheOddPadFirst) {
  const HostTensor X = tensor(ElementType::kFloat32, {1, 1, 1, 6}, {6, 5, 4, 3, 2, 1});
  PoolSpec lower = spec({1, 2});
  lower.auto_pad = "SAME_LOWER";
  EXPECT_EQ(library_pads(lower, X.shape()), (Ints{0, 1, 0, 0}));
  const MaxPoolResult r = run(lower, X);
  EXPECT_EQ(r.Y.shape(), (Ints{1, 1, 1, 6}));
  EXPECT_TRUE(same_values({6, 6, 5, 4, 3, 2}, values_of(r.Y)));
  EXPECT_EQ(indices_of(r.Indices), (Ints{0, 0, 1, 2, 3, 4}));
}

TEST(MaxPoolCorners, SameUpperPutsTheOddPadLast) {
  const HostTensor X = tensor(ElementType::kFloat32, {1, 1, 1, 6}, {6, 5, 4, 3, 2, 1});
  PoolSpec upper = spec({1, 2});
  upper.auto_pad = "SAME_UPPER";
  EXPECT_EQ(library_pads(upper, X.shape()), (Ints{0, 0, 0, 1}));
  const MaxPoolResult r = run(upper, X);
  EXPECT_TRUE(same_values({6, 5, 4, 3, 2, 1}, values_of(r.Y)));
  EXPECT_EQ(indices_of(r.Indices), (Ints{0, 1, 2, 3, 4, 5}));
}

TEST(MaxPoolCorners, DilatedSamePadsForTheDilatedKernel) {
  // k = 2, d = 3 covers 4 positions: total pad 3, SAME_LOWER puts 2 first.
  // Output i looks at taps i - 2 and i + 1.
  const HostTensor X = tensor(ElementType::kFloat32, {1, 1, 5}, {1, 5, 2, 4, 3});
  PoolSpec s = spec({2});
  s.dilations = {3};
  s.auto_pad = "SAME_LOWER";
  EXPECT_EQ(library_pads(s, X.shape()), (Ints{2, 1}));
  const MaxPoolResult r = run(s, X);
  EXPECT_TRUE(same_values({5, 2, 4, 5, 2}, values_of(r.Y)));
  EXPECT_EQ(indices_of(r.Indices), (Ints{1, 2, 3, 1, 2}));
}

TEST(MaxPoolCorners, CeilModeDropsAWindowStartingInTheEndPadding) {
  // ceil((4 + 2 - 3) / 2) + 1 = 3 windows, but the third would start at 4 == in.
  PoolSpec s = spec({3}, {2}, {0, 2});
  s.ceil_mode = true;
  const MaxPoolResult r = run(s, tensor(ElementType::kFloat32, {1, 1, 4}, {1, 2, 3, 4}));
  EXPECT_EQ(r.Y.shape(), (Ints{1, 1, 2}));
  EXPECT_TRUE(same_values({3, 4}, values_of(r.Y)));
}

TEST(MaxPoolCorners, CeilModeKeepsAWindowStartingInsideTheInput) {
  PoolSpec s = spec({3}, {2}, {0, 1});
  s.ceil_mode = true;
  const MaxPoolResult r = run(s, tensor(ElementType::kFloat32, {1, 1, 5}, {1, 2, 3, 4, 5}));
  EXPECT_EQ(r.Y.shape(), (Ints{1, 1, 3}));
  EXPECT_TRUE(same_values({3, 5, 5}, values_of(r.Y)));
  EXPECT_EQ(indices_of(r.Indices), (Ints{2, 4, 4}));
}

TEST(MaxPoolCorners, AllMinusInfinityWindowGivesMinusInfinity) {
  for (ElementType type : kFloatTypes) {
    const MaxPoolResult r = run(spec({2, 2}, {1, 1}, {1, 1, 1, 1}), tensor(type, {1, 1, 2, 2}, {-kInf, -kInf, -kInf, -kInf}));
    EXPECT_TRUE(same_values(Values(9, -kInf), values_of(r.Y))) << type_label(type);
    // Every window holds a real tap; the first one in scan order is chosen.
    EXPECT_EQ(indices_of(r.Indices), (Ints{0, 0, 1, 0, 0, 1, 2, 2, 3})) << type_label(type);
  }
}

TEST(MaxPoolCorners, PaddingNeverContributesZero) {
  const PoolSpec s = spec({2, 2}, {1, 1}, {1, 1, 1, 1});
  const MaxPoolResult int8 = run(s, tensor(ElementType::kInt8, {1, 1, 2, 2}, {-5, -7, -9, -128}));
  EXPECT_TRUE(same_values({-5, -5, -7, -5, -5, -7, -9, -9, -128}, values_of(int8.Y)));
  for (ElementType type : kFloatTypes) {
    const MaxPoolResult r = run(s, tensor(type, {1, 1, 2, 2}, {-5, -7, -9, -100}));
    EXPECT_TRUE(same_values({-5, -5, -7, -5, -5, -7, -9, -9, -100}, values_of(r.Y))) << type_label(type);
  }
}

TEST(MaxPoolCorners, WindowOnlyInThePaddingGivesLowestAndMinusOne) {
  for (ElementType type : max_pool_types()) {
    const MaxPoolResult r = run(spec({2}, {1}, {2, 0}), tensor(type, {1, 1, 2}, {5, 6}));
    EXPECT_TRUE(same_values({lowest_value(type), 5, 6}, values_of(r.Y))) << type_label(type);
    EXPECT_EQ(indices_of(r.Indices), (Ints{-1, 0, 1})) << type_label(type);
  }
}

TEST(MaxPoolCorners, DilatedWindowWhoseTapsStraddleTheInput) {
  // k = 2, d = 3 over a single element padded by 2 on each side: the taps of
  // both windows (-2 and 1, then -1 and 2) all miss the element.
  PoolSpec s = spec({2}, {1}, {2, 2});
  s.dilations = {3};
  for (ElementType type : max_pool_types()) {
    const MaxPoolResult r = run(s, tensor(type, {1, 1, 1}, {7}));
    EXPECT_TRUE(same_values({lowest_value(type), lowest_value(type)}, values_of(r.Y))) << type_label(type);
    EXPECT_EQ(indices_of(r.Indices), (Ints{-1, -1})) << type_label(type);
  }
}

// One window of three taps per output; NaN placed as each test says.
void expect_nan_windows(const Values& x, const Values& expected_y, const Ints& expected_indices) {
  for (ElementType type : kFloatTypes) {
    const MaxPoolResult r = run(spec({3}, {3}), tensor(type, {1, 1, static_cast<int64_t>(x.size())}, x));
    EXPECT_TRUE(same_values(expected_y, values_of(r.Y))) << type_label(type);
    EXPECT_EQ(indices_of(r.Indices), expected_indices) << type_label(type);
  }
}

TEST(MaxPoolCorners, NanFirstInWindowPropagates) {
  expect_nan_windows({kNaN, 1, 2, kNaN, -kInf, -kInf}, {kNaN, kNaN}, {0, 3});
}

TEST(MaxPoolCorners, NanLastInWindowPropagates) {
  expect_nan_windows({3, 4, kNaN, kInf, 1, kNaN}, {kNaN, kNaN}, {2, 5});
}

TEST(MaxPoolCorners, IndexPointsAtTheFirstOfSeveralNans) {
  expect_nan_windows({5, kNaN, kNaN, kNaN, kInf, kNaN}, {kNaN, kNaN}, {1, 3});
}

// Kernels that order floats through integer keys can rank NaNs by payload;
// the policy is the first NaN in scan order, whatever its sign and payload.
TEST(MaxPoolCorners, IndexPointsAtTheFirstNanWhateverItsPayload) {
  for (ElementType type : kFloatTypes) {
    const size_t width = bytes_per_element(type);
    const int shift = static_cast<int>(width * 8) - 16;  // the NaN's top 16 bits sit alike in every format
    const uint16_t exponent_and_quiet = type == ElementType::kFloat16 ? 0x7E00
                                        : type == ElementType::kFloat32 || type == ElementType::kBFloat16 ? 0x7FC0
                                                                                                          : 0x7FF8;
    const auto nan = [&](bool negative, uint16_t payload) {
      return (static_cast<uint64_t>(exponent_and_quiet | payload | (negative ? 0x8000 : 0)) << shift);
    };
    // Windows of three: [small payload, large payload, 1] [-NaN, +NaN, 2] [1, large, small].
    const std::vector<uint64_t> nans{nan(false, 0x01), nan(false, 0x3F), nan(true, 0x01),
                                     nan(false, 0x01), nan(false, 0x3F), nan(false, 0x01)};
    HostTensor X(type, {1, 1, 9});
    const std::vector<int> nan_slots{0, 1, 3, 4, 7, 8};
    const Values plain{0, 0, 1, 0, 0, 2, 1, 0, 0};
    for (int64_t i = 0; i < 9; ++i) X.set(i, plain[static_cast<size_t>(i)]);
    for (size_t k = 0; k < nan_slots.size(); ++k) {
      X.set_bits(nan_slots[k], nans[k]);
      ASSERT_TRUE(X.is_nan(nan_slots[k])) << type_label(type);
    }
    const MaxPoolResult r = run(spec({3}, {3}), X);
    EXPECT_TRUE(same_values({kNaN, kNaN, kNaN}, values_of(r.Y))) << type_label(type);
    EXPECT_EQ(indices_of(r.Indices), (Ints{0, 3, 7})) << type_label(type);
  }
}

// docs/semantics.md: "VALID is zero pads and honours ceil_mode", so ceil_mode applies to VALID exactly
// as to explicit zero pads. ONNX's shape inference (onnx 1.23) agrees: in 5,
// kernel 2, stride 2 gives 3. The spec prose's deprecated-auto_pad formula,
// ceil((in - k + 1) / s), would give 2.
TEST(MaxPoolCorners, ValidWithCeilModeBehavesLikeZeroPads) {
  PoolSpec valid = spec({2}, {2});
  valid.auto_pad = "VALID";
  valid.ceil_mode = true;
  const MaxPoolResult r = run(valid, tensor(ElementType::kFloat32, {1, 1, 5}, {1, 2, 3, 4, 5}));
  EXPECT_EQ(r.Y.shape(), (Ints{1, 1, 3}));
  EXPECT_TRUE(same_values({2, 4, 5}, values_of(r.Y)));
}

TEST(MaxPoolCorners, StorageOrderOneEncodesTheSameElementColumnMajor) {
  // Two channels of a 3 x 4 plane. Window (1, 1) holds 9 at (1,3) and (2,2):
  // a column-major scan would meet (2,2) first, the row-major scan (1,3).
  const Values plane{0, 0, 0, 0, 0, 0, 1, 9, 0, 0, 9, 2};
  Values both = plane;
  both.insert(both.end(), plane.begin(), plane.end());
  const HostTensor X = tensor(ElementType::kFloat32, {1, 2, 3, 4}, both);
  PoolSpec s = spec({2, 2}, {1, 2});
  const MaxPoolResult row_major = run(s, X);
  s.storage_order = 1;
  const MaxPoolResult column_major = run(s, X);
  EXPECT_TRUE(row_major.Y.same_bytes(column_major.Y));
  EXPECT_EQ(indices_of(row_major.Indices), (Ints{0, 7, 4, 7, 12, 19, 16, 19}));
  EXPECT_EQ(indices_of(column_major.Indices), (Ints{0, 10, 1, 10, 12, 22, 13, 22}));
}

TEST(MaxPoolCorners, OneByOneKernelCopiesTheInput) {
  for (ElementType type : max_pool_types()) {
    for (int64_t storage_order : {0, 1}) {
      Random random(derive_seed(test_seed(), 5000, static_cast<uint64_t>(type)));
      HostTensor X(type, {2, 3, 5, 7});
      fill_with_ties(random, &X, 0.1);
      PoolSpec s = spec({1, 1});
      s.storage_order = storage_order;
      const MaxPoolResult r = run(s, X);
      EXPECT_TRUE(r.Y.same_bytes(X)) << type_label(type);
      // Element (h, w) of plane p: row-major p*35 + h*7 + w, column-major p*35 + w*5 + h.
      Ints expected;
      for (int64_t plane = 0; plane < 6; ++plane)
        for (int64_t h = 0; h < 5; ++h)
          for (int64_t w = 0; w < 7; ++w) expected.push_back(plane * 35 + (storage_order ? w * 5 + h : h * 7 + w));
      EXPECT_EQ(indices_of(r.Indices), expected) << type_label(type) << " storage_order=" << storage_order;
    }
  }
}

// A window as large as the input is a global max: check it against the
// reference GlobalMaxPool, an independent code path.
void expect_window_equal_to_input_is_global_max(const Ints& shape, uint64_t stream) {
  for (ElementType type : max_pool_types()) {
    Random random(derive_seed(test_seed(), stream, static_cast<uint64_t>(type)));
    HostTensor X(type, shape);
    fill_with_ties(random, &X, 0.01);
    const MaxPoolCase c = make_max_pool_case(spec(Ints(shape.begin() + 2, shape.end())), X, true);
    EXPECT_TRUE(library_matches_reference(c)) << c.describe();
    MaxPoolResult r;
    const onnxpool::Status status = library_max_pool(c, &r);
    ASSERT_TRUE(status.is_ok()) << status.message();
    const HostTensor global = reference_global_max_pool(X);
    EXPECT_TRUE(same_values(values_of(global), values_of(r.Y))) << type_label(type);
  }
}

TEST(MaxPoolCorners, KernelEqualToTheInputSize) {
  expect_window_equal_to_input_is_global_max({2, 3, 5, 7}, 5100);
  expect_window_equal_to_input_is_global_max({1, 2, 9}, 5101);
  expect_window_equal_to_input_is_global_max({1, 2, 3, 4, 5}, 5102);
}

TEST(MaxPoolCorners, GlobalSizedWindowOverALargePlane) {
  expect_window_equal_to_input_is_global_max({1, 2, 33, 130}, 5200);
}

// The shapes the kernels specialise for, plus ceil and SAME variants of them.
struct SpecialisedShape {
  const char* name;
  PoolSpec spec;
};

std::vector<SpecialisedShape> specialised_shapes() {
  PoolSpec ceil_3x3_s2 = spec({3, 3}, {2, 2}, {1, 1, 1, 1});
  ceil_3x3_s2.ceil_mode = true;
  PoolSpec same_3x3_s2 = spec({3, 3}, {2, 2});
  same_3x3_s2.auto_pad = "SAME_UPPER";
  return {
      {"k3x3_s2_p1", spec({3, 3}, {2, 2}, {1, 1, 1, 1})},
      {"k2x2_s2", spec({2, 2}, {2, 2})},
      {"k3x3_s1_p1", spec({3, 3}, {1, 1}, {1, 1, 1, 1})},
      {"k3x3_s2_p1_ceil", ceil_3x3_s2},
      {"k3x3_s2_same_upper", same_3x3_s2},
  };
}

class MaxPoolSpecialisedShapes : public testing::TestWithParam<SpecialisedShape> {};

TEST_P(MaxPoolSpecialisedShapes, MatchReferenceAtManyWidths) {
  const SpecialisedShape& shape = GetParam();
  int case_index = 0;
  for (ElementType type : max_pool_types()) {
    for (int64_t height : schedule_edge_heights()) {
      for (int64_t width : schedule_edge_widths()) {
        // An unpadded 2-wide kernel does not fit a 1-wide input (that is an invalid node).
        if (width < 2 && shape.spec.pads.empty() && shape.spec.auto_pad == "NOTSET") continue;
        Random random(derive_seed(test_seed(), 6000, static_cast<uint64_t>(case_index)));
        HostTensor X(type, {1, 3, height, width});
        fill_with_ties(random, &X, 0.03);
        const MaxPoolCase c = make_max_pool_case(shape.spec, X, /*with_indices=*/case_index++ % 2 == 0);
        EXPECT_TRUE(library_matches_reference(c)) << c.describe();
      }
    }
  }
  EXPECT_GT(case_index, 0);
}

INSTANTIATE_TEST_SUITE_P(Shapes, MaxPoolSpecialisedShapes, testing::ValuesIn(specialised_shapes()),
                         [](const testing::TestParamInfo<SpecialisedShape>& param_info) { return std::string(param_info.param.name); });

TEST(MaxPoolCorners, VideoShape2x2x2Stride2AtManyWidths) {
  for (ElementType type : max_pool_types()) {
    for (int64_t width : {2, 9, 16, 17, 33, 65}) {
      Random random(derive_seed(test_seed(), 6100, static_cast<uint64_t>(width)));
      HostTensor X(type, {1, 2, 4, 3, width});
      fill_with_ties(random, &X, 0.03);
      const MaxPoolCase c = make_max_pool_case(spec({2, 2, 2}, {2, 2, 2}), X, width % 2 == 1);
      EXPECT_TRUE(library_matches_reference(c)) << c.describe();
    }
  }
}

}  // namespace
}  // namespace onnxpool_test
