// GlobalAveragePool on long planes, which the planner sends to the
// long-plane kernels (runtime/plan/long_planes.h; white box: each case first
// checks that the plan does take them, so the comparisons cannot quietly test
// the other kernel instead), on every CPU variant this machine runs: every
// float type against the reference at plane sizes around the rule's edges
// (whole blocks of 32, short and long tails, past 2^16), with NaN,
// infinities and zeros of either sign, and the same bits at any thread count.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "onnxpool/pooling.h"
#include "plan/long_planes.h"
#include "plan/plan.h"
#include "support/cpu_variants.h"
#include "support/float_type_info.h"
#include "support/pool_cases.h"
#include "support/plan_verdict.h"
#include "support/pool_check.h"
#include "support/random.h"
#include "support/tensor_compare.h"
#include "support/test_settings.h"
#include "support/value_fills.h"

namespace onnxpool_test {
namespace {

using onnxpool::CpuVariant;
using onnxpool::PoolOp;
using onnxpool::detail::KernelVariant;
using onnxpool::detail::Plan;
using onnxpool::detail::PlanContext;
using Ints = std::vector<int64_t>;

Plan plan_mean(const Ints& shape, ElementType type, const PlanContext& context) {
  onnxpool::PoolAttributes attributes;
  EXPECT_TRUE(onnxpool::PoolAttributes::parse(PoolOp::kGlobalAveragePool, onnxpool::Attributes(), &attributes));
  const onnxpool::TensorView X(nullptr, type, shape);
  Plan plan;
  const onnxpool::Status s = onnxpool::detail::plan_call(PoolOp::kGlobalAveragePool, attributes, X, nullptr,
                                                         nullptr, false, context, &plan);
  EXPECT_TRUE(s) << s.message();
  return plan;
}

bool takes_long_planes(const Ints& shape, ElementType type, const PlanContext& context = PlanContext::current()) {
  const Plan plan = plan_mean(shape, type, context);
  return plan.launch.kernel != nullptr && plan.launch.kernel->variant == KernelVariant::kLongPlanes;
}

std::string declined_because(const Ints& shape, const PlanContext& context) {
  return verdict(plan_mean(shape, ElementType::kFloat32, context), "long planes");
}

TEST(LongPlanesChoice, LongPlanesWithShortTailsOnly) {
  for (CpuVariant variant : runnable_cpu_variants()) {
    const PlanContext context = PlanContext::for_cpu_variant(variant, 1);
    SCOPED_TRACE(onnxpool::cpu_variant_name(variant));
    // EfficientNet-B6's 264x264 and ResNet's 56x56: whole blocks of 32.
    EXPECT_TRUE(takes_long_planes({1, 56, 264, 264}, ElementType::kFloat32, context));
    EXPECT_TRUE(takes_long_planes({1, 144, 56, 56}, ElementType::kFloat32, context));
    // 75x75: a tail of 25 elements under 175 blocks.
    EXPECT_TRUE(takes_long_planes({1, 24, 75, 75}, ElementType::kFloat32, context));
    EXPECT_TRUE(takes_long_planes({1, 8, 4096}, ElementType::kFloat64, context));
    EXPECT_TRUE(takes_long_planes({1, 8, 4096}, ElementType::kFloat16, context));
    // 7x7 is shorter than long_plane_size; 127 has a tail of 31 behind 3 blocks.
    EXPECT_EQ(declined_because({1, 2048, 7, 7}, context), "planes shorter than long_plane_size");
    EXPECT_EQ(declined_because({1, 64, 127}, context),
              "the plane's tail past whole blocks of 32 costs more than the chains save");
    EXPECT_EQ(declined_because({1, 64, 64}, context), "accepted");
  }
}

// The step model counts the partials each kernel was built with: a tuned
// global_partials (KernelEntry::knobs) replaces kernel_matrix.cmake's 32 for
// the long kernel and one vector for the kernel it would replace.
TEST(LongPlanesChoice, CountsThePartialsEachKernelWasTunedTo) {
  onnxpool::detail::KernelEntry kernel{};
  kernel.knobs[0] = "unroll_small_planes=false global_partials=64";
  kernel.knobs[1] = "vector_multiple=2";
  kernel.knobs[2] = "not_global_partials=8";
  EXPECT_EQ(onnxpool::detail::tuned_global_partials(kernel, 0, 32), 64);
  EXPECT_EQ(onnxpool::detail::tuned_global_partials(kernel, 1, 32), 32);
  EXPECT_EQ(onnxpool::detail::tuned_global_partials(kernel, 2, 32), 32);

  onnxpool::detail::WindowGeometry g;
  g.batch = 1;
  g.channels = 144;
  onnxpool::detail::AxisWindow side;
  side.input = side.kernel = 56;
  g.axes = {side, side};  // 56x56: whole blocks of 32 and of 64
  const onnxpool::detail::RuntimeKnobs knobs;
  onnxpool::detail::LaunchSettings settings;
  settings.knobs = &knobs;
  onnxpool::detail::PlaneSums sums;
  sums.lanes = sums.plain_kernel = 8;
  EXPECT_EQ(onnxpool::detail::long_planes_declines(g, sums, settings), nullptr);
  sums.plain_kernel = 32;  // the plain kernel tuned to as many chains
  EXPECT_STREQ(onnxpool::detail::long_planes_declines(g, sums, settings),
               "the kernel it would replace has as many partial sums");
  sums.long_kernel = 64;
  EXPECT_EQ(onnxpool::detail::long_planes_declines(g, sums, settings), nullptr);
}

class LongPlanes : public testing::Test {
 protected:
  void TearDown() override {
    EXPECT_TRUE(onnxpool::set_num_threads(1));
    EXPECT_TRUE(onnxpool::set_cpu_variant_limit(CpuVariant::kNative));
  }
};

// Plane sizes the long-plane kernels take: whole blocks (64, 1024, 56x56),
// a short tail (100, 1030), a tail of 31 behind many blocks (4095), 75x75,
// and one past 2^16 elements.
const std::vector<int64_t> kPlaneSizes = {64, 100, 1024, 1030, 3136, 4095, 5625, 65536 + 7};

TEST_F(LongPlanes, MatchTheReferenceWithTheSameBitsAtAnyThreadCount) {
  BatchOutcome outcome;
  uint64_t index = 0;
  int planned_long = 0;
  const int variants = on_each_cpu_variant([&](CpuVariant variant) {
    for (ElementType type : float_types()) {
      for (int64_t size : kPlaneSizes) {
        Random random(derive_seed(test_seed(), 9800, index++));
        const int64_t channels = size > 10000 ? 3 : 19;
        HostTensor X(type, {2, channels, size});
        const PoolCase c = make_filled_sum_pool_case(random, PoolOp::kGlobalAveragePool, p_only(2), std::move(X));
        if (!takes_long_planes(c.X.shape(), type)) {
          record_variant_case(&outcome, variant, c.describe(),
                              testing::AssertionFailure() << "the plan does not take the long-plane kernel");
          continue;
        }
        ++planned_long;
        ASSERT_TRUE(onnxpool::set_num_threads(1));
        testing::AssertionResult result = pool_matches_reference(c);
        HostTensor Y1, Y2;
        if (result && library_pool(c, &Y1) && onnxpool::set_num_threads(2) && library_pool(c, &Y2)) {
          result = tensors_identical("Y at 1 thread", Y1, Y2);
        }
        record_variant_case(&outcome, variant, c.describe(), result);
      }
    }
  });
  EXPECT_EQ(outcome.cases_run, variants * static_cast<int>(float_types().size() * kPlaneSizes.size()));
  EXPECT_EQ(planned_long, outcome.cases_run);
  EXPECT_TRUE(outcome.failures.empty()) << outcome.report();
}

// Written out by hand: a plane of one repeated value with one element
// replaced in its tail or in a block, so the special value must survive
// the chains, the halvings and the tail alike.
TEST_F(LongPlanes, SpecialValuesAnywhereInThePlane) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  struct Plane {
    const char* what;
    double fill, odd_one;
    double expected;  // NaN: any NaN
  };
  const std::vector<Plane> planes = {
      {"all -0", -0.0, -0.0, -0.0}, {"-0 and one +0", -0.0, 0.0, 0.0}, {"one NaN", 1.0, nan, nan},
      {"one +inf", 2.0, inf, inf},  {"+inf and -inf", inf, -inf, nan}, {"all ones", 1.0, 1.0, 1.0},
  };
  const int64_t size = 1030;  // 32 blocks and a tail of 6
  int checked = 0;
  on_each_cpu_variant([&](CpuVariant variant) {
    for (ElementType type : float_types()) {
      ASSERT_TRUE(takes_long_planes({1, 1, size}, type));
      for (const Plane& p : planes) {
        for (int64_t where : {int64_t{5}, int64_t{700}, size - 1}) {
          HostTensor X(type, {1, 1, size});
          for (int64_t i = 0; i < size; ++i) X.set(i, p.fill);
          X.set(where, p.odd_one);
          HostTensor Y;
          ASSERT_TRUE(library_pool(make_pool_case(PoolOp::kGlobalAveragePool, p_only(2), X), &Y).is_ok());
          const double y = Y.get(0);
          const std::string at = std::string(p.what) + " at " + std::to_string(where) + ", " + type_label(type) +
                                 ", " + onnxpool::cpu_variant_name(variant);
          if (std::isnan(p.expected)) {
            EXPECT_TRUE(std::isnan(y)) << at << ": " << y;
          } else {
            EXPECT_EQ(y, p.expected) << at;
            EXPECT_EQ(std::signbit(y), std::signbit(p.expected)) << at;
          }
          ++checked;
        }
      }
    }
  });
  EXPECT_GE(checked, static_cast<int>(float_types().size() * planes.size() * 3));
}

}  // namespace
}  // namespace onnxpool_test
