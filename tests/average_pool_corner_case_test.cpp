// The AveragePool corner cases of docs/semantics.md and pooling.h, one
// named test each, with the expected output written out by hand (every value
// exact in all four float types, so the comparison is exact).
#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "reference/reference_pooling.h"
#include "support/float_type_info.h"
#include "support/literal_tensors.h"
#include "support/pool_cases.h"
#include "support/pool_check.h"
#include "support/pool_expectation.h"
#include "support/test_settings.h"
#include "support/value_fills.h"

namespace onnxpool_test {
namespace {

using onnxpool::PoolOp;
using Ints = std::vector<int64_t>;
constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

PoolSpec average_spec(Ints kernel, Ints strides, Ints pads, bool count_include_pad, bool ceil_mode = false) {
  PoolSpec s = window_spec(std::move(kernel), std::move(strides), std::move(pads), ceil_mode);
  s.count_include_pad = count_include_pad;
  return s;
}

// Runs the library; fails the test when it refuses the node.
HostTensor run(const PoolSpec& s, const HostTensor& X) {
  HostTensor Y;
  const onnxpool::Status status = library_pool(make_pool_case(PoolOp::kAveragePool, s, X), &Y);
  EXPECT_TRUE(status.is_ok()) << status.message();
  return Y;
}

// in = 6, k = 3, s = 2, pads [1, 1], ceil_mode: ceil((6 + 2 - 3) / 2) + 1 = 4
// windows starting at -1, 1, 3, 5. The last one's taps are 5 (in X), 6 (the
// end pad) and 7 (past the end pad: counted by neither divisor).
const Values kCeilInput{1, 2, 3, 4, 5, 6};

TEST(AveragePoolCorners, CountIncludePadZeroDividesByTheTapsInsideX) {
  for (ElementType type : float_types()) {
    const HostTensor Y = run(average_spec({3}, {2}, {1, 1}, false, true), tensor(type, {1, 1, 6}, kCeilInput));
    EXPECT_EQ(Y.shape(), (Ints{1, 1, 4})) << type_label(type);
    // (1+2)/2, (2+3+4)/3, (4+5+6)/3, 6/1
    EXPECT_TRUE(same_values({1.5, 3, 5, 6}, values_of(Y))) << type_label(type);
  }
}

TEST(AveragePoolCorners, CountIncludePadOneCountsThePadsButNotTapsPastTheEndPad) {
  for (ElementType type : float_types()) {
    const HostTensor Y = run(average_spec({3}, {2}, {1, 1}, true, true), tensor(type, {1, 1, 6}, kCeilInput));
    // (0+1+2)/3, 9/3, 15/3, and (6+0)/2: tap 7 lies past the end pad.
    EXPECT_TRUE(same_values({1, 3, 5, 3}, values_of(Y))) << type_label(type);
  }
}

// X is 3 x 5 holding 1..15; kernel 2x3, strides 2x2, pads: top 1, left 0,
// bottom 0, right 1; ceil_mode. Rows: windows {-1, 0} and {1, 2}. Columns:
// ceil((5 + 1 - 3) / 2) + 1 = 3 windows {0,1,2} {2,3,4} {4,5,6}; column 5 is
// the right pad and column 6 lies past it.
TEST(AveragePoolCorners, AsymmetricPadsIn2DWithACeilWindow) {
  Values x;
  for (int v = 1; v <= 15; ++v) x.push_back(v);
  for (ElementType type : float_types()) {
    const HostTensor X = tensor(type, {1, 1, 3, 5}, x);
    const HostTensor excluding = run(average_spec({2, 3}, {2, 2}, {1, 0, 0, 1}, false, true), X);
    EXPECT_EQ(excluding.shape(), (Ints{1, 1, 2, 3})) << type_label(type);
    // Top row of windows sees only row 0: 6/3, 12/3, 5/1; bottom: 57/6, 69/6, 25/2.
    EXPECT_TRUE(same_values({2, 4, 5, 9.5, 11.5, 12.5}, values_of(excluding))) << type_label(type);
    const HostTensor including = run(average_spec({2, 3}, {2, 2}, {1, 0, 0, 1}, true, true), X);
    // Divisors 6, 6, 4 (2 rows x columns 4 and 5), then 6, 6, 4.
    EXPECT_TRUE(same_values({1, 2, 1.25, 9.5, 11.5, 6.25}, values_of(including))) << type_label(type);
  }
}

// SAME_* pads are pads: count_include_pad = 1 counts them like explicit ones.
TEST(AveragePoolCorners, CountIncludePadCountsSamePads) {
  for (ElementType type : float_types()) {
    const HostTensor X = tensor(type, {1, 1, 5}, {1, 2, 3, 4, 5});
    PoolSpec upper = average_spec({3}, {1}, {}, true);
    upper.auto_pad = "SAME_UPPER";  // one pad each side
    EXPECT_TRUE(same_values({1, 2, 3, 4, 3}, values_of(run(upper, X)))) << type_label(type);
    upper.count_include_pad = false;
    EXPECT_TRUE(same_values({1.5, 2, 3, 4, 4.5}, values_of(run(upper, X)))) << type_label(type);
    PoolSpec lower = average_spec({2}, {1}, {}, true);
    lower.auto_pad = "SAME_LOWER";  // the single pad goes first
    EXPECT_TRUE(same_values({0.5, 1.5, 2.5, 3.5, 4.5}, values_of(run(lower, X)))) << type_label(type);
    lower.count_include_pad = false;
    EXPECT_TRUE(same_values({1, 1.5, 2.5, 3.5, 4.5}, values_of(run(lower, X)))) << type_label(type);
  }
}

TEST(AveragePoolCorners, WindowOfOnlyPaddingIsNanUnlessPadsAreCounted) {
  for (ElementType type : float_types()) {
    // pads [2, 0], k = 2: the first window covers -2 and -1.
    const HostTensor X = tensor(type, {1, 1, 2}, {5, 6});
    EXPECT_TRUE(same_values({kNaN, 5, 5.5}, values_of(run(average_spec({2}, {1}, {2, 0}, false), X))))
        << type_label(type);
    EXPECT_TRUE(same_values({0, 2.5, 5.5}, values_of(run(average_spec({2}, {1}, {2, 0}, true), X))))
        << type_label(type);
  }
}

TEST(AveragePoolCorners, DilatedTapsThatStepOverTheInputGiveNan) {
  // k = 2, d = 3 over one element padded by 2 each side: the windows' taps
  // (-2, 1) and (-1, 2) all miss it, but all lie inside the padded input.
  for (ElementType type : float_types()) {
    PoolSpec s = average_spec({2}, {1}, {2, 2}, false);
    s.dilations = {3};
    const HostTensor X = tensor(type, {1, 1, 1}, {7});
    EXPECT_TRUE(same_values({kNaN, kNaN}, values_of(run(s, X)))) << type_label(type);
    s.count_include_pad = true;
    EXPECT_TRUE(same_values({0, 0}, values_of(run(s, X)))) << type_label(type);
  }
}

TEST(AveragePoolCorners, NanAndInfinitiesInAWindow) {
  for (ElementType type : float_types()) {
    // Windows of three: [1 NaN 2] [3 inf 4] [-inf inf 5] [-inf 1 1] [NaN inf 1]
    const HostTensor X = tensor(type, {1, 1, 15}, {1, kNaN, 2, 3, kInf, 4, -kInf, kInf, 5, -kInf, 1, 1, kNaN, kInf, 1});
    EXPECT_TRUE(same_values({kNaN, kInf, kNaN, -kInf, kNaN}, values_of(run(average_spec({3}, {3}, {}, false), X))))
        << type_label(type);
  }
}

// pooling.h: "16-bit floats accumulate in float32". Windows of 4096 values
// 1 + f * 2^-m (value_fills.h) average exactly to 1 + 2^-m in float32, in any
// summation order; a running sum in the 16-bit type (one accumulator, or one
// per vector lane) stops taking in the small parts and lands on 1.
// (A pairwise 16-bit sum is accurate enough to pass this.)
TEST(AveragePoolCorners, SixteenBitTypesAccumulateInFloat32) {
  for (ElementType type : {ElementType::kFloat16, ElementType::kBFloat16}) {
    const double mean = 1.0 + accumulation_probe_step(type);
    for (const Ints& shape : {Ints{1, 2, 4096}, Ints{2, 1, 64, 64}, Ints{1, 2, 16, 16, 16}}) {
      Random random(derive_seed(test_seed(), 8500, shape.size()));
      HostTensor X(type, shape);
      fill_accumulation_probe(random, &X);
      for (bool count_include_pad : {false, true}) {
        const HostTensor Y = run(average_spec(Ints(shape.begin() + 2, shape.end()), {}, {}, count_include_pad), X);
        EXPECT_TRUE(same_values(Values(static_cast<size_t>(shape[0] * shape[1]), mean), values_of(Y)))
            << type_label(type) << ' ' << shape_to_string(shape);
      }
    }
  }
}

// A window as large as the input is a global average: check it against the
// reference GlobalAveragePool, an independent code path.
TEST(AveragePoolCorners, KernelEqualToTheInputSizeIsTheGlobalAverage) {
  for (const Ints& shape : {Ints{2, 3, 5, 7}, Ints{1, 2, 67}, Ints{1, 2, 3, 4, 5}}) {
    for (ElementType type : float_types()) {
      Random random(derive_seed(test_seed(), 8510, shape.size() * 16 + static_cast<uint64_t>(type)));
      HostTensor X(type, shape);
      for (int64_t i = 0; i < X.size(); ++i) X.set(i, static_cast<double>(random.between(-50, 50)) / 8);
      const HostTensor Y = run(average_spec(Ints(shape.begin() + 2, shape.end()), {}, {}, false), X);
      const HostTensor global = reference_global_average_pool(X);
      EXPECT_TRUE(close_to(values_of(global), X.size() / (shape[0] * shape[1]), Y))
          << type_label(type) << ' ' << shape_to_string(shape);
    }
  }
}

}  // namespace
}  // namespace onnxpool_test
