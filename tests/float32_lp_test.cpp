// LpPool's and GlobalLpPool's float32 sums (runtime/execute/float32_lp.h), white
// box: ordinary data must stay on the float32 path (else every call would
// take the float64 one and no test of the public API would notice), and
// every plane whose float32 sum of |x|^p could overflow or underflow must be
// recomputed by the exact kernel (else a wrong result would be returned).
// lp_pool_corner_case_test checks the same inputs through the public API.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "execute/float32_lp.h"
#include "onnxpool/pooling.h"
#include "plan/operator_setup.h"
#include "execute/executor.h"
#include "plan/plan.h"
#include "support/approx_compare.h"
#include "support/cpu_variants.h"
#include "support/literal_tensors.h"
#include "support/pool_cases.h"
#include "support/pool_check.h"
#include "support/pool_expectation.h"
#include "support/random.h"
#include "support/test_settings.h"

namespace onnxpool_test {
namespace {

using onnxpool::PoolOp;
using onnxpool::detail::Float32LpOutcome;
using Ints = std::vector<int64_t>;

constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Float32Run {
  onnxpool::Status status;
  Float32LpOutcome outcome = Float32LpOutcome::kUnavailable;
  HostTensor Y;
};

// Runs only the float32 path (with the scaled kernel, exact for every p, for
// the planes it recomputes), into a Y pre-filled with a byte pattern.
Float32Run run_float32(const PoolCase& c) {
  Float32Run run;
  onnxpool::PoolAttributes attributes;
  run.status = onnxpool::PoolAttributes::parse(c.op, c.attributes, &attributes);
  if (!run.status) return run;
  std::vector<int64_t> shape;
  run.status = onnxpool::infer_output_shape(attributes, c.X.shape(), &shape);
  if (!run.status) return run;
  run.Y = HostTensor(c.X.type(), shape);
  run.Y.fill_bytes(0xA5);
  // The planner must send the call to the float32 sums (a plan that does
  // not leaves the outcome kUnavailable, which the tests catch).
  const onnxpool::TensorView X = c.X.view(), Y = run.Y.view();
  onnxpool::detail::Plan plan;
  run.status = onnxpool::detail::plan_call(c.op, attributes, X, &Y, nullptr, false,
                                           onnxpool::detail::PlanContext::current(), &plan);
  if (!run.status || plan.route != onnxpool::detail::Route::kFloat32LpFirst) return run;
  onnxpool::detail::Float32LpKernels kernels = onnxpool::detail::float32_lp_kernels(plan);
  run.status = onnxpool::detail::find_operator_kernel(c.op, X, plan.geometry,
                                                      onnxpool::detail::KernelVariant::kScaled, &kernels.exact);
  if (!run.status) return run;
  run.status = onnxpool::detail::run_float32_lp(kernels, attributes.p, plan.geometry, X, Y, &run.outcome);
  return run;
}

// A windowed case of each spatial rank and a global one, over X.
std::vector<PoolCase> cases_over(ElementType type, const Ints& shape, const Values& values, int64_t p) {
  const HostTensor X = tensor(type, shape, values);
  const size_t rank = shape.size() - 2;
  Ints kernel(rank, 2), strides(rank, 1), pads(2 * rank, 1);
  return {make_pool_case(PoolOp::kLpPool, lp_spec(kernel, strides, pads, p), X),
          make_pool_case(PoolOp::kGlobalLpPool, p_only(p), X)};
}

bool untouched(const HostTensor& Y) {
  HostTensor pattern(Y.type(), Y.shape());
  pattern.fill_bytes(0xA5);
  return Y.same_bytes(pattern);
}

testing::AssertionResult matches_reference(const PoolCase& c, const HostTensor& Y) {
  const PoolExpectation e = expected_pool_result(c);
  return tensors_close("Y", Y.type(), e.values, e.allowed, Y);
}

TEST(Float32Lp, RunsOnOrdinaryDataWithReferenceResults) {
  Random random(derive_seed(test_seed(), 9100, 0));
  for (ElementType type : {ElementType::kFloat32, ElementType::kBFloat16}) {
    for (const Ints& shape : {Ints{2, 3, 37}, Ints{1, 2, 19, 23}, Ints{1, 2, 5, 6, 7}}) {
      Values values;
      int64_t size = 1;
      for (int64_t d : shape) size *= d;
      for (int64_t i = 0; i < size; ++i) values.push_back(static_cast<double>(random.between(-32, 32)) / 8);
      for (int64_t p : {1, 2, 3, 5}) {
        for (const PoolCase& c : cases_over(type, shape, values, p)) {
          const Float32Run run = run_float32(c);
          ASSERT_TRUE(run.status.is_ok()) << run.status.message();
          EXPECT_EQ(run.outcome, Float32LpOutcome::kRan) << c.describe();
          EXPECT_TRUE(matches_reference(c, run.Y)) << c.describe();
        }
      }
    }
  }
}

TEST(Float32Lp, RunsOnZeros) {
  for (ElementType type : {ElementType::kFloat32, ElementType::kBFloat16}) {
    for (const PoolCase& c : cases_over(type, {1, 2, 4}, {0, -0.0, 0, 0, -0.0, -0.0, 0, 0}, 2)) {
      const Float32Run run = run_float32(c);
      ASSERT_TRUE(run.status.is_ok()) << run.status.message();
      EXPECT_EQ(run.outcome, Float32LpOutcome::kRan) << c.describe();
      for (int64_t i = 0; i < run.Y.size(); ++i) EXPECT_EQ(run.Y.get(i), 0.0) << c.describe();
    }
  }
}

// One extreme value among ordinary ones: its plane is recomputed exactly
// (the float32 sum would overflow, lose the value to underflow, or carry an
// inf or NaN).
TEST(Float32Lp, RecomputesThePlanesWhoseFloat32SumCouldOverflowOrUnderflow) {
  struct Extreme {
    const char* name;
    ElementType type;
    double value;
    int64_t p;
  };
  const Extreme extremes[] = {
      {"float32 1e30, p=2 (1e60 overflows)", ElementType::kFloat32, 1e30, 2},
      {"float32 1e10, p=4 (1e40 overflows)", ElementType::kFloat32, 1e10, 4},
      {"float32 3e-31, p=1 (below 2^-100)", ElementType::kFloat32, 3e-31, 1},
      {"float32 1e-30, p=2 (1e-60 underflows)", ElementType::kFloat32, 1e-30, 2},
      {"float32 subnormal, p=2", ElementType::kFloat32, 1e-40, 2},
      {"float32 inf", ElementType::kFloat32, kInf, 2},
      {"bfloat16 1e30, p=2", ElementType::kBFloat16, 1e30, 2},
      {"bfloat16 1e-30, p=3", ElementType::kBFloat16, 1e-30, 3},
      {"float32 NaN", ElementType::kFloat32, kNaN, 2},
      {"bfloat16 -inf", ElementType::kBFloat16, -kInf, 1},
  };
  for (const Extreme& e : extremes) {
    // The extreme value is the only nonzero one of its plane.
    const Values values = {0, 0, 0, e.value, 0, 0, 1, 2, 3, 4, 5, 6};
    for (const PoolCase& c : cases_over(e.type, {1, 2, 6}, values, e.p)) {
      const Float32Run run = run_float32(c);
      ASSERT_TRUE(run.status.is_ok()) << run.status.message();
      EXPECT_EQ(run.outcome, Float32LpOutcome::kRanWithExactPlanes) << e.name << ": " << c.describe();
      EXPECT_TRUE(matches_reference(c, run.Y)) << e.name << ": " << c.describe();
    }
  }
}

// A plane whose only nonzero value underflows in float32 sums to 0, an
// output the float32 path cannot tell from a plane of zeros: the range check
// (generators/lp_range_generator.cpp, several vector steps of partials at
// once) must flag it wherever the value sits (any lane of any step, a later
// block, the tail), on every CPU variant, and the plane must come out exact.
TEST(Float32Lp, FindsAnUnderflowingValueAtEveryPositionOfALongPlane) {
  // Planes of 301: with the widest partials (4 steps of 16 lanes) 4 whole
  // blocks and a 45-element tail.
  const Ints shape = {1, 4, 301};
  const int64_t size = 4 * 301;
  PoolCase c =
      make_pool_case(PoolOp::kGlobalLpPool, p_only(2), tensor(ElementType::kFloat32, shape, Values(size, 0.0)));
  const int variants = on_each_cpu_variant([&](onnxpool::CpuVariant variant) {
    ASSERT_EQ(run_float32(c).outcome, Float32LpOutcome::kRan) << cpu_variant_name(variant);
    int64_t missed = 0, first_missed = -1;
    for (int64_t at = 0; at < size; ++at) {
      c.X.set(at, -1e-30);
      const Float32Run run = run_float32(c);
      c.X.set(at, 0.0);
      const bool exact = run.status.is_ok() && run.outcome == Float32LpOutcome::kRanWithExactPlanes &&
                         std::fabs(run.Y.get(at / 301) - 1e-30) <= 1e-35;
      bool others_zero = true;
      for (int64_t plane = 0; plane < 4; ++plane) {
        if (plane != at / 301 && run.Y.get(plane) != 0.0) others_zero = false;
      }
      if (exact && others_zero) continue;
      if (missed++ == 0) first_missed = at;
    }
    EXPECT_EQ(missed, 0) << cpu_variant_name(variant) << ": 1e-30 went unflagged or came out wrong at " << missed
                         << " positions, the first " << first_missed;
  });
  EXPECT_GE(variants, 1);
}

// Enough outputs for the scan to give each thread a share
// (runtime/execute/float_magnitudes.h): a plane to recompute is found in the first
// share and in the last, at 1, 2 and 3 threads.
TEST(Float32Lp, FindsThePlanesToRecomputeInEveryThreadsShare) {
  const Ints shape = {1, 6, 96, 96};  // 55296 outputs of a 1x1 window: 3 shares of 16K or more
  const int64_t plane = 96 * 96;
  Values values;
  for (int64_t i = 0; i < 6 * plane; ++i) values.push_back(1.0 + static_cast<double>(i % 7) / 8);
  values[5] = 1e30;                // plane 0: inf in float32
  values[6 * plane - 1] = -1e-30;  // plane 5: 0 in float32
  const PoolCase c = make_pool_case(PoolOp::kLpPool, lp_spec({1, 1}, {1, 1}, {0, 0, 0, 0}, 2),
                                    tensor(ElementType::kFloat32, shape, values));
  for (int threads : {1, 2, 3}) {
    ASSERT_TRUE(onnxpool::set_num_threads(threads));
    const Float32Run run = run_float32(c);
    ASSERT_TRUE(run.status.is_ok()) << run.status.message();
    EXPECT_EQ(run.outcome, Float32LpOutcome::kRanWithExactPlanes) << threads << " threads";
    EXPECT_TRUE(matches_reference(c, run.Y)) << threads << " threads";
    EXPECT_EQ(run.Y.get(5), 1e30f) << threads << " threads";
    EXPECT_NEAR(run.Y.get(6 * plane - 1), 1e-30, 1e-35) << threads << " threads";
  }
  ASSERT_TRUE(onnxpool::set_num_threads(0));
}

// The limits are conservative but not absurdly so: values just inside them
// stay on the float32 path.
TEST(Float32Lp, RunsOnValuesNearTheLimits) {
  struct Near {
    const char* name;
    double value;
    int64_t p;
  };
  const Near nears[] = {{"1e18, p=2", 1e18, 2}, {"1e-14, p=2", 1e-14, 2}, {"1e9, p=4", 1e9, 4}, {"1e-29, p=1", 1e-29, 1}};
  for (const Near& n : nears) {
    for (const PoolCase& c : cases_over(ElementType::kFloat32, {1, 1, 6}, {n.value, -n.value, n.value, 0, n.value, n.value}, n.p)) {
      const Float32Run run = run_float32(c);
      ASSERT_TRUE(run.status.is_ok()) << run.status.message();
      EXPECT_EQ(run.outcome, Float32LpOutcome::kRan) << n.name << ": " << c.describe();
      EXPECT_TRUE(matches_reference(c, run.Y)) << n.name << ": " << c.describe();
    }
  }
}

TEST(Float32Lp, RangeKeepsEveryPowerNormalAndEverySumFinite) {
  for (int64_t p : {1, 2, 3, 4, 7, 30}) {
    for (int64_t taps : {1, 9, 1000, 1000000}) {
      const auto range = onnxpool::detail::float32_lp_range(p, taps);
      ASSERT_LE(range.lowest, range.highest) << "p " << p << ", taps " << taps;
      const double lowest = range.lowest, highest = range.highest;
      EXPECT_GE(std::pow(lowest, static_cast<double>(p)), std::exp2(-100.0)) << "p " << p;
      EXPECT_LE(2.0 * static_cast<double>(taps) * std::pow(highest, static_cast<double>(p)),
                static_cast<double>(std::numeric_limits<float>::max()))
          << "p " << p << ", taps " << taps;
      // Tight: the next float outward breaks the bound.
      const double below = std::nextafter(range.lowest, 0.0f);
      const double above = std::nextafter(range.highest, std::numeric_limits<float>::max());
      EXPECT_LT(std::pow(below, static_cast<double>(p)), std::exp2(-100.0) * (1 + 1e-12)) << "p " << p;
      EXPECT_GT(2.0 * static_cast<double>(taps) * std::pow(above, static_cast<double>(p)),
                static_cast<double>(std::numeric_limits<float>::max()) * (1 - 1e-12))
          << "p " << p << ", taps " << taps;
    }
  }
}

// An output at least the smallest trusted one has lost less than 2^-24 of
// its p-th power to underflow (each of `taps` terms loses under 2^-126), and
// the next float down would not have.
TEST(Float32Lp, SmallestTrustedOutputBoundsTheUnderflowLoss) {
  for (int64_t p : {1, 2, 3, 4, 7, 30}) {
    for (double taps : {1.0, 9.0, 196.0, 1e6}) {
      const double trusted = onnxpool::detail::smallest_trusted_float32_lp(p, taps);
      const double power = std::pow(trusted, static_cast<double>(p));
      EXPECT_GE(power * std::exp2(-24.0), taps * std::exp2(-126.0) * (1 - 1e-12)) << "p " << p << ", taps " << taps;
      const double below = std::nextafter(static_cast<float>(trusted), 0.0f);
      // (Within pow's rounding: its root of an exact power of two may land a
      // hair above it and round the bound up one float.)
      EXPECT_LT(std::pow(below, static_cast<double>(p)) * std::exp2(-24.0), taps * std::exp2(-126.0) * (1 + 1e-12))
          << "p " << p << ", taps " << taps;
    }
  }
}

// float16 sums in float32 already and float64 has nothing wider: no float32
// kernels, and Y is left alone.
TEST(Float32Lp, OtherTypesHaveNoFloat32Kernels) {
  for (ElementType type : {ElementType::kFloat16, ElementType::kFloat64}) {
    for (const PoolCase& c : cases_over(type, {1, 1, 4}, {1, 2, 3, 4}, 2)) {
      const Float32Run run = run_float32(c);
      ASSERT_TRUE(run.status.is_ok()) << run.status.message();
      EXPECT_EQ(run.outcome, Float32LpOutcome::kUnavailable) << c.describe();
      EXPECT_TRUE(untouched(run.Y)) << c.describe();
    }
  }
}

}  // namespace
}  // namespace onnxpool_test
