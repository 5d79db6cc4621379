// The LpPool and GlobalLpPool corner cases of docs/semantics.md and
// pooling.h: partial ceil windows are not rescaled, padding adds nothing,
// zeros, NaN and infinities, and results that stay finite and correctly
// scaled where a plain sum of |x|^p would overflow or underflow (float32 near
// 1e10 and 1e30 with p = 4, float16 near 60000, float64 near 1e200 with p = 2,
// float32 near 1e-30 and subnormal with p = 4 and 8, ...).
//
// The expected values of the extreme cases come from scaled_lp_norm (long
// double, scaled by the largest |x|), not from the reference: its double sum
// of |x|^p overflows for float64 near 1e200 and underflows for float32
// subnormals with p = 8 and float64 subnormals with any p.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "reference/reference_pooling.h"
#include "support/float_type_info.h"
#include "support/literal_tensors.h"
#include "support/pool_check.h"
#include "support/pool_expectation.h"
#include "support/scaled_lp.h"
#include "support/test_settings.h"
#include "support/value_fills.h"

namespace onnxpool_test {
namespace {

using onnxpool::PoolOp;
using Ints = std::vector<int64_t>;
constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

// Runs the library; fails the test when it refuses the node.
HostTensor run(PoolOp op, const PoolSpec& s, const HostTensor& X) {
  HostTensor Y;
  const onnxpool::Status status = library_pool(make_pool_case(op, s, X), &Y);
  EXPECT_TRUE(status.is_ok()) << onnxpool::op_name(op) << ": " << status.message();
  return Y;
}

TEST(LpPoolCorners, PartialCeilWindowsAreNotRescaled) {
  // in = 5, k = 3, s = 2, pads [1, 0], ceil_mode: windows {-1,0,1} {1,2,3}
  // {3,4,5}. The first holds a pad, the last a tap past the input; both sum
  // only their real taps, with no kernel / taps factor.
  for (ElementType type : float_types()) {
    const HostTensor X = tensor(type, {1, 1, 5}, {1, -2, 3, -4, 5});
    EXPECT_TRUE(same_values({3, 9, 9}, values_of(run(PoolOp::kLpPool, lp_spec({3}, {2}, {1, 0}, 1, true), X))))
        << type_label(type);
    EXPECT_TRUE(close_to({std::sqrt(5.0), std::sqrt(29.0), std::sqrt(41.0)}, 3,
                         run(PoolOp::kLpPool, lp_spec({3}, {2}, {1, 0}, 2, true), X)))
        << type_label(type);
    EXPECT_TRUE(close_to({std::cbrt(9.0), std::cbrt(99.0), std::cbrt(189.0)}, 3,
                         run(PoolOp::kLpPool, lp_spec({3}, {2}, {1, 0}, 3, true), X)))
        << type_label(type);
  }
}

TEST(LpPoolCorners, PaddingAddsNothingAndAWindowOfOnlyPaddingIsZero) {
  // pads [2, 1], k = 2: windows {-2,-1} {-1,0} {0,1} {1,2}.
  for (ElementType type : float_types()) {
    const HostTensor X = tensor(type, {1, 1, 2}, {5, -6});
    EXPECT_TRUE(close_to({0, 5, std::sqrt(61.0), 6}, 2, run(PoolOp::kLpPool, lp_spec({2}, {1}, {2, 1}, 2), X)))
        << type_label(type);
  }
}

// An algorithm that divides by the window's largest |x| must not turn a
// window of zeros into 0/0.
TEST(LpPoolCorners, WindowsOfZerosGiveZero) {
  for (ElementType type : float_types()) {
    const HostTensor X = tensor(type, {1, 2, 7}, {0, -0.0, 0, 5, 0, -0.0, 0, -0.0, -0.0, 0, 0, 0, 0, -0.0});
    for (int64_t p = 1; p <= 8; ++p) {
      const std::string where = std::string(type_label(type)) + " p=" + std::to_string(p);
      EXPECT_TRUE(close_to({0, 5, 5, 5, 0, 0, 0, 0, 0, 0}, 3, run(PoolOp::kLpPool, lp_spec({3}, {1}, {}, p), X)))
          << where;
      // Windows {-2,-1} (padding only) and {2,3}: 0 and 5 in channel 0, 0 and 0 in channel 1.
      EXPECT_TRUE(close_to({0, 5, 0, 0}, 2, run(PoolOp::kLpPool, lp_spec({2}, {4}, {2, 0}, p), X))) << where;
      EXPECT_TRUE(close_to({5, 0}, 7, run(PoolOp::kGlobalLpPool, p_only(p), X))) << where;
    }
  }
}

TEST(LpPoolCorners, NanGivesNanAndAnInfinityGivesPlusInfinity) {
  for (ElementType type : float_types()) {
    // Windows of three: [1 NaN 2] [-inf 3 4] [inf 1 1] [-inf -inf 0]
    const HostTensor X = tensor(type, {1, 1, 12}, {1, kNaN, 2, -kInf, 3, 4, kInf, 1, 1, -kInf, -kInf, 0});
    for (int64_t p : {1, 2, 3, 8}) {
      EXPECT_TRUE(same_values({kNaN, kInf, kInf, kInf}, values_of(run(PoolOp::kLpPool, lp_spec({3}, {3}, {}, p), X))))
          << type_label(type) << " p=" << p;
    }
    EXPECT_TRUE(same_values({kNaN}, values_of(run(PoolOp::kGlobalLpPool, p_only(2), X)))) << type_label(type);
    const HostTensor no_nan = tensor(type, {1, 2, 3}, {1, -kInf, 2, 0, kInf, 0});
    EXPECT_TRUE(same_values({kInf, kInf}, values_of(run(PoolOp::kGlobalLpPool, p_only(3), no_nan))))
        << type_label(type);
  }
}

// pooling.h does not say which wins when a window holds both; this is the
// reference's answer, that of IEEE arithmetic on the sum (inf + NaN is NaN)
// and of onnxruntime's pow-and-add loop. (C's hypot would say +inf.)
TEST(LpPoolCorners, NanWinsOverAnInfinityInTheSameWindow) {
  for (ElementType type : float_types()) {
    const HostTensor X = tensor(type, {1, 1, 4}, {kInf, 1, kNaN, -kInf});
    EXPECT_TRUE(same_values({kNaN}, values_of(run(PoolOp::kLpPool, lp_spec({4}, {1}, {}, 2), X)))) << type_label(type);
    EXPECT_TRUE(same_values({kNaN}, values_of(run(PoolOp::kGlobalLpPool, p_only(2), X)))) << type_label(type);
  }
}

// ---- Magnitudes at which a plain sum of |x|^p overflows or underflows ----

struct ExtremeWindow {
  const char* name;
  ElementType type;
  int64_t p;
  Values values;  // rounded to `type` when the tensor is built
};

std::vector<ExtremeWindow> extreme_windows() {
  const ElementType f32 = ElementType::kFloat32, f16 = ElementType::kFloat16, bf16 = ElementType::kBFloat16,
                    f64 = ElementType::kFloat64;
  return {
      {"float32 p=4 near 1e10", f32, 4, {1e10, 2e10, 3e10, 1.5e10, 2.5e10}},
      {"float32 p=4 near 1e30", f32, 4, {1e30, 3e30, 2e30, 1e30}},
      {"float32 p=8 near 1e30", f32, 8, {1e30, 2e30, 3e30}},
      {"float32 p=2 near the largest finite", f32, 2, {3e38, 1e38}},
      {"float32 p=3 near the largest finite", f32, 3, {2e38, 2e38, 1e38}},
      {"float32 p=4 near 1e-30", f32, 4, {1e-30, 2e-30, 3e-30}},
      {"float32 p=8 near 1e-30", f32, 8, {1e-30, 2e-30, 3e-30}},
      {"float32 p=4 subnormals", f32, 4, {1.4e-45, 2.8e-45, 1e-40, 5e-41}},
      {"float32 p=8 subnormals", f32, 8, {1.4e-45, 4.2e-45, 1e-42, 7e-43}},
      {"float32 p=2 four smallest subnormals", f32, 2, {1.4e-45, 1.4e-45, 1.4e-45, 1.4e-45}},
      {"float32 p=8 huge next to tiny and zero", f32, 8, {1e-30, 1e30, 0, 1.4e-45}},
      {"float16 p=2 near 60000", f16, 2, {36864, 49152}},
      {"float16 p=8 near 60000", f16, 8, {60000, 60000}},
      {"float16 p=4 near 60000", f16, 4, {60000, 30000, 100}},
      {"float16 p=8 subnormals", f16, 8, {6e-8, 1.2e-7, 3e-6}},
      {"bfloat16 p=4 near 1e30", bf16, 4, {1e30, 2e30, 3e30}},
      {"bfloat16 p=2 near the largest finite", bf16, 2, {2e38, 1e38}},
      {"bfloat16 p=2 near 1e-30 and subnormal", bf16, 2, {1e-30, 1e-38, 1e-40}},
      {"bfloat16 p=8 subnormals", bf16, 8, {1e-39, 5e-40}},
      {"float64 p=2 near 1e200", f64, 2, {1e200, 2e200, 3e200}},
      {"float64 p=8 near 1e300", f64, 8, {1e300, 1e300, 5e299}},
      {"float64 p=2 near the largest finite", f64, 2, {1.5e308, 5e307}},
      {"float64 p=2 near 1e-200", f64, 2, {1e-200, 3e-200}},
      {"float64 p=4 subnormals", f64, 4, {5e-324, 1e-320, 2e-315}},
      {"float64 p=8 huge next to tiny", f64, 8, {1e300, 1e-300, 5e-324}},
  };
}

// Channel 0 holds the values, channel 1 the same reversed (the largest |x|
// elsewhere in the window).
HostTensor two_channels(ElementType type, const Values& values) {
  Values both = values;
  both.insert(both.end(), values.rbegin(), values.rend());
  return tensor(type, {1, 2, static_cast<int64_t>(values.size())}, both);
}

// The exact Lp norm of each window of `width` consecutive values of each
// channel (stride 1, no pads), from X's rounded values.
Values sliding_norms(const HostTensor& X, int64_t width, int64_t p) {
  const int64_t length = X.shape()[2];
  Values norms;
  for (int64_t channel = 0; channel < X.shape()[1]; ++channel) {
    for (int64_t start = 0; start + width <= length; ++start) {
      Values window;
      for (int64_t i = start; i < start + width; ++i) window.push_back(X.get(channel * length + i));
      norms.push_back(static_cast<double>(scaled_lp_norm(window, p)));
    }
  }
  return norms;
}

// Every value whose correctly rounded result is finite must come out finite
// (the tolerance alone would let an overflow to infinity pass near the top).
testing::AssertionResult finite_where_exact_is(const Values& exact, const HostTensor& Y) {
  for (int64_t i = 0; i < Y.size(); ++i) {
    if (std::isfinite(round_to(Y.type(), exact[static_cast<size_t>(i)])) && !std::isfinite(Y.get(i))) {
      return testing::AssertionFailure() << "element " << i << ": " << Y.get(i) << " where "
                                         << exact[static_cast<size_t>(i)] << " is exact";
    }
  }
  return testing::AssertionSuccess();
}

TEST(LpPoolCorners, ExtremeMagnitudesStayFiniteAndCorrectlyScaled) {
  for (const ExtremeWindow& w : extreme_windows()) {
    const HostTensor X = two_channels(w.type, w.values);
    const int64_t n = static_cast<int64_t>(w.values.size());
    for (int64_t width : {n, int64_t{2}}) {
      const Values exact = sliding_norms(X, width, w.p);
      const HostTensor Y = run(PoolOp::kLpPool, lp_spec({width}, {1}, {}, w.p), X);
      EXPECT_TRUE(close_to(exact, width, Y)) << w.name << ", LpPool kernel " << width;
      EXPECT_TRUE(finite_where_exact_is(exact, Y)) << w.name << ", LpPool kernel " << width;
    }
    const Values exact = sliding_norms(X, n, w.p);
    const HostTensor Y = run(PoolOp::kGlobalLpPool, p_only(w.p), X);
    EXPECT_TRUE(close_to(exact, n, Y)) << w.name << ", GlobalLpPool";
    EXPECT_TRUE(finite_where_exact_is(exact, Y)) << w.name << ", GlobalLpPool";
  }
}

// Large planes of extreme values, so that every vector lane and the
// reduction across lanes meet them.
TEST(LpPoolCorners, ExtremeMagnitudesOverLargeGlobalPlanes) {
  struct Plane {
    const char* name;
    ElementType type;
    int64_t p;
    Ints shape;
    int low_exponent, high_exponent;
  };
  const Plane planes[] = {
      {"float32 near 1e30, p=2", ElementType::kFloat32, 2, {1, 2, 1000}, 98, 101},
      {"float32 near 1e30, p=4", ElementType::kFloat32, 4, {2, 1, 31, 33}, 98, 101},
      {"float32 subnormals, p=8", ElementType::kFloat32, 8, {1, 2, 1031}, -149, -130},
      {"bfloat16 near 1e30, p=3", ElementType::kBFloat16, 3, {1, 1, 7, 9, 11}, 98, 101},
      {"float16 subnormals, p=8", ElementType::kFloat16, 8, {1, 2, 49}, -24, -15},
      {"float64 near 1e200, p=2", ElementType::kFloat64, 2, {1, 2, 1031}, 663, 666},
      {"float64 subnormals, p=4", ElementType::kFloat64, 4, {1, 1, 1000}, -1074, -1030},
  };
  uint64_t index = 0;
  for (const Plane& plane : planes) {
    Random random(derive_seed(test_seed(), 8600, index++));
    HostTensor X(plane.type, plane.shape);
    for (int64_t i = 0; i < X.size(); ++i) X.set(i, band_value(random, plane.type, plane.low_exponent, plane.high_exponent));
    const int64_t size = X.size() / (plane.shape[0] * plane.shape[1]);
    Values exact;
    for (int64_t start = 0; start < X.size(); start += size) {
      Values values;
      for (int64_t i = start; i < start + size; ++i) values.push_back(X.get(i));
      exact.push_back(static_cast<double>(scaled_lp_norm(values, plane.p)));
    }
    const HostTensor Y = run(PoolOp::kGlobalLpPool, p_only(plane.p), X);
    EXPECT_TRUE(close_to(exact, size, Y)) << plane.name;
    EXPECT_TRUE(finite_where_exact_is(exact, Y)) << plane.name;
  }
}

// As for AveragePool: 16-bit floats accumulate in float32. With p = 1 the
// probe's planes sum to n * (1 + 2^-m) exactly: 4100 (float16), 4128 (bfloat16).
TEST(LpPoolCorners, SixteenBitTypesAccumulateInFloat32) {
  for (ElementType type : {ElementType::kFloat16, ElementType::kBFloat16}) {
    const double sum = 4096 * (1.0 + accumulation_probe_step(type));
    for (const Ints& shape : {Ints{1, 2, 4096}, Ints{2, 1, 64, 64}}) {
      Random random(derive_seed(test_seed(), 8610, shape.size()));
      HostTensor X(type, shape);
      fill_accumulation_probe(random, &X);
      for (int64_t i = 0; i < X.size(); i += 3) X.set(i, -X.get(i));  // |x|, not x
      const Values expected(static_cast<size_t>(shape[0] * shape[1]), sum);
      const HostTensor windowed = run(PoolOp::kLpPool, lp_spec(Ints(shape.begin() + 2, shape.end()), {}, {}, 1), X);
      EXPECT_TRUE(same_values(expected, values_of(windowed))) << "LpPool " << type_label(type) << shape_to_string(shape);
      const HostTensor global = run(PoolOp::kGlobalLpPool, p_only(1), X);
      EXPECT_TRUE(same_values(expected, values_of(global))) << "GlobalLpPool " << type_label(type) << shape_to_string(shape);
    }
  }
}

// A window as large as the input is a global Lp pool: check it against the
// reference GlobalLpPool, an independent code path.
TEST(LpPoolCorners, KernelEqualToTheInputSizeIsTheGlobalLpPool) {
  for (const Ints& shape : {Ints{2, 3, 5, 7}, Ints{1, 2, 67}, Ints{1, 2, 3, 4, 5}}) {
    for (ElementType type : float_types()) {
      for (int64_t p : {1, 2, 5}) {
        Random random(derive_seed(test_seed(), 8620, shape.size() * 256 + static_cast<uint64_t>(type) * 16 + p));
        HostTensor X(type, shape);
        for (int64_t i = 0; i < X.size(); ++i) X.set(i, static_cast<double>(random.between(-50, 50)) / 8);
        const HostTensor Y = run(PoolOp::kLpPool, lp_spec(Ints(shape.begin() + 2, shape.end()), {}, {}, p), X);
        EXPECT_TRUE(close_to(values_of(reference_global_lp_pool(X, p)), X.size() / (shape[0] * shape[1]), Y))
            << type_label(type) << ' ' << shape_to_string(shape) << " p=" << p;
      }
    }
  }
}

// ---- The oracle itself (no library) ----

TEST(ScaledLpOracle, KnownValues) {
  EXPECT_EQ(scaled_lp_norm({3, -4}, 2), 5.0L);
  EXPECT_EQ(scaled_lp_norm({}, 3), 0.0L);
  EXPECT_EQ(scaled_lp_norm({0.0, -0.0}, 4), 0.0L);
  // 7 * (2/7 + 1 + 1/7): exact in x86's 80-bit long double by luck of
  // rounding, one ulp off in aarch64's 128-bit one.
  EXPECT_NEAR(static_cast<double>(scaled_lp_norm({-2, 7, 1}, 1)), 10.0, 1e-14);
  EXPECT_TRUE(std::isnan(scaled_lp_norm({1, kNaN, kInf}, 2)));
  EXPECT_EQ(scaled_lp_norm({1, -kInf}, 2), std::numeric_limits<long double>::infinity());
  // Where double's sum of squares overflows, and where its p-th powers vanish.
  EXPECT_NEAR(static_cast<double>(scaled_lp_norm({3e200, 4e200}, 2) / 1e200L), 5.0, 1e-15);
  EXPECT_NEAR(static_cast<double>(scaled_lp_norm({3e-320, 4e-320}, 2) / 1e-320L), 5.0, 1e-3);  // subnormal inputs
  const double tiny = std::ldexp(1.0, -149);
  EXPECT_NEAR(static_cast<double>(scaled_lp_norm({tiny, tiny}, 8) / tiny), std::pow(2.0, 1.0 / 8), 1e-15);
}

TEST(ScaledLpOracle, AgreesWithTheReferenceWhereDoubleSuffices) {
  for (int index = 0; index < 200; ++index) {
    Random random(derive_seed(test_seed(), 8690, static_cast<uint64_t>(index)));
    const int64_t n = random.between(1, 30);
    const int64_t p = random.between(1, 8);
    HostTensor X(ElementType::kFloat64, {1, 1, n});
    Values values;
    for (int64_t i = 0; i < n; ++i) {
      X.set(i, band_value(random, ElementType::kFloat64, -30, 30));
      values.push_back(X.get(i));
    }
    const double reference = reference_global_lp_pool(X, p).get(0);
    EXPECT_NEAR(static_cast<double>(scaled_lp_norm(values, p)), reference, 1e-13 * reference) << "p=" << p << " n=" << n;
  }
}

}  // namespace
}  // namespace onnxpool_test
