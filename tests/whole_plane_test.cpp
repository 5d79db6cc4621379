// Windowed pools whose one window covers the whole plane, which the planner
// sends to the global pools' kernels (runtime/plan/whole_plane.h; white box:
// each case first checks the plan's verdict, so a comparison cannot quietly
// test the windowed kernel instead): MaxPool, AveragePool and LpPool against
// the reference on every CPU variant this machine runs, over every type
// each has (MaxPool's integer types keep the windowed kernels), on 1D, 2D and 3D planes, with pads, ceil_mode and strides that
// leave one window; and the windows just short of the plane, which must not
// take them. Then windows that cover only the trailing axes whole, which
// reduce those first (runtime/plan/covered_axes.h), the same way.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "onnxpool/pooling.h"
#include "plan/plan.h"
#include "support/cpu_variants.h"
#include "support/float_type_info.h"
#include "support/maxpool_cases.h"
#include "support/maxpool_check.h"
#include "support/plan_verdict.h"
#include "support/pool_cases.h"
#include "support/pool_check.h"
#include "support/random.h"
#include "support/test_settings.h"
#include "support/value_fills.h"

namespace onnxpool_test {
namespace {

using onnxpool::CpuVariant;
using onnxpool::PoolOp;
using onnxpool::detail::Plan;
using onnxpool::detail::PlanContext;
using Ints = std::vector<int64_t>;

// The planner's verdict on `candidate` for op on X of `shape`.
std::string planned_verdict(const char* candidate, PoolOp op, const onnxpool::Attributes& attrs, const Ints& shape,
                            ElementType type, bool with_indices = false) {
  onnxpool::PoolAttributes attributes;
  const onnxpool::Status parsed = onnxpool::PoolAttributes::parse(op, attrs, &attributes);
  if (!parsed) return "attributes refused: " + parsed.message();
  const onnxpool::TensorView X(nullptr, type, shape);
  Plan plan;
  const onnxpool::Status s = onnxpool::detail::plan_call(op, attributes, X, nullptr, nullptr, with_indices,
                                                         PlanContext::current(), &plan);
  if (!s) return "not planned: " + s.message();
  return verdict(plan, candidate);
}

std::string whole_plane_verdict(PoolOp op, const onnxpool::Attributes& attrs, const Ints& shape, ElementType type,
                                bool with_indices = false) {
  return planned_verdict("whole plane", op, attrs, shape, type, with_indices);
}

struct WholePlaneWindow {
  const char* what;
  Ints shape;
  PoolSpec spec;
};

// Windows that leave one output per axis and cover every element.
std::vector<WholePlaneWindow> covering_windows() {
  PoolSpec ceil = window_spec({7, 7}, {2, 2}, {}, true);
  PoolSpec padded = window_spec({9, 8}, {1, 1}, {1, 0, 1, 1});
  return {
      {"7x7 on 7x7 (ResNet's and MobileNet's exports)", {1, 37, 7, 7}, window_spec({7, 7}, {1, 1})},
      {"13x13 on 13x13 stride 13 (SqueezeNet)", {2, 5, 13, 13}, window_spec({13, 13}, {13, 13})},
      {"8x8 on 8x8, ceil_mode", {1, 9, 8, 8}, window_spec({8, 8}, {2, 2}, {}, true)},
      {"7x7 on 7x7, ceil_mode stride 2", {1, 3, 7, 7}, ceil},
      {"9x8 over 7x7 padded", {1, 6, 7, 7}, padded},
      {"1D 100 on 100", {1, 11, 100}, window_spec({100}, {1})},
      {"3D 2x7x7 on 2x7x7", {1, 4, 2, 7, 7}, window_spec({2, 7, 7}, {1, 1, 1})},
      {"1x1 plane", {1, 17, 1, 1}, window_spec({1, 1}, {1, 1})},
  };
}

class WholePlane : public testing::Test {
 protected:
  void TearDown() override { EXPECT_TRUE(onnxpool::set_cpu_variant_limit(CpuVariant::kNative)); }
};

TEST_F(WholePlane, MaxPoolMatchesTheReference) {
  BatchOutcome outcome;
  uint64_t index = 0;
  const int variants = on_each_cpu_variant([&](CpuVariant variant) {
    for (ElementType type : max_pool_types()) {
      for (const WholePlaneWindow& w : covering_windows()) {
        Random random(derive_seed(test_seed(), 9900, index++));
        HostTensor X(type, w.shape);
        fill_with_ties(random, &X, 0.1);
        const MaxPoolCase c = make_max_pool_case(w.spec, std::move(X), false);
        // GlobalMaxPool has no integer types in ONNX, nor kernels for them here.
        const std::string wanted = is_floating_point(type) ? "accepted" : "not in this build for this type and rank";
        const std::string v = whole_plane_verdict(PoolOp::kMaxPool, c.attributes, w.shape, type);
        testing::AssertionResult result = v == wanted ? library_matches_reference(c)
                                                      : testing::AssertionFailure() << "verdict: " << v;
        record_variant_case(&outcome, variant, std::string(w.what) + ": " + c.describe(), result);
      }
    }
  });
  EXPECT_EQ(outcome.cases_run, variants * static_cast<int>(max_pool_types().size() * covering_windows().size()));
  EXPECT_TRUE(outcome.failures.empty()) << outcome.report();
}

TEST_F(WholePlane, AveragePoolAndLpPoolMatchTheReference) {
  BatchOutcome outcome;
  uint64_t index = 0;
  int cases = 0;
  const int variants = on_each_cpu_variant([&](CpuVariant variant) {
    for (PoolOp op : {PoolOp::kAveragePool, PoolOp::kLpPool}) {
      for (ElementType type : float_types()) {
        for (const WholePlaneWindow& w : covering_windows()) {
          for (int64_t p : {int64_t{1}, int64_t{2}, int64_t{7}}) {
            if (op == PoolOp::kAveragePool && p != 2) continue;
            Random random(derive_seed(test_seed(), 9901, index++));
            PoolSpec spec = w.spec;
            spec.p = p;
            const PoolCase c = make_filled_sum_pool_case(random, op, spec, HostTensor(type, w.shape));
            const std::string v = whole_plane_verdict(op, c.attributes, w.shape, type);
            testing::AssertionResult result = v == "accepted" ? pool_matches_reference(c)
                                                              : testing::AssertionFailure() << "verdict: " << v;
            record_variant_case(&outcome, variant, std::string(w.what) + ": " + c.describe(), result);
            ++cases;
          }
        }
      }
    }
  });
  EXPECT_EQ(cases, variants * static_cast<int>(float_types().size() * covering_windows().size() * 4));
  EXPECT_EQ(outcome.cases_run, cases);
  EXPECT_TRUE(outcome.failures.empty()) << outcome.report();
}

// AveragePool counting its pads divides by the padded window, not the
// plane; Indices, a dilated window, a window one short of the plane and two
// outputs keep the windowed kernels. Each is still checked against the
// reference, since the plan's other kernel now serves it.
TEST_F(WholePlane, WindowsThatAreNotTheWholePlaneKeepTheWindowedKernels) {
  struct Declined {
    PoolOp op;
    Ints shape;
    PoolSpec spec;
    bool with_indices;
    const char* reason;
  };
  PoolSpec counted = window_spec({8, 8}, {1, 1}, {1, 1, 0, 0});
  counted.count_include_pad = true;
  PoolSpec dilated = window_spec({4, 4}, {1, 1});
  dilated.dilations = {2, 2};
  const std::vector<Declined> cases = {
      {PoolOp::kAveragePool, {1, 5, 7, 7}, counted, false, "AveragePool counts its pads (count_include_pad = 1)"},
      {PoolOp::kMaxPool, {1, 5, 7, 7}, window_spec({7, 7}, {1, 1}), true,
       "MaxPool asks for Indices (the global kernels have none)"},
      {PoolOp::kMaxPool, {1, 5, 7, 7}, dilated, false, "a dilated window"},
      {PoolOp::kLpPool, {1, 5, 7, 7}, window_spec({7, 6}, {1, 2}), false, "the window leaves part of the plane out"},
      {PoolOp::kAveragePool, {1, 5, 7, 7}, window_spec({7, 6}, {1, 1}), false, "more than one output along an axis"},
  };
  for (const Declined& d : cases) {
    SCOPED_TRACE(d.reason);
    Random random(derive_seed(test_seed(), 9902, 0));
    if (d.op == PoolOp::kMaxPool) {
      HostTensor X(ElementType::kFloat32, d.shape);
      fill_with_ties(random, &X, 0.1);
      const MaxPoolCase c = make_max_pool_case(d.spec, std::move(X), d.with_indices);
      EXPECT_EQ(whole_plane_verdict(d.op, c.attributes, d.shape, ElementType::kFloat32, d.with_indices), d.reason);
      EXPECT_TRUE(library_matches_reference(c));
    } else {
      const PoolCase c = make_filled_sum_pool_case(random, d.op, d.spec, HostTensor(ElementType::kFloat32, d.shape));
      EXPECT_EQ(whole_plane_verdict(d.op, c.attributes, d.shape, ElementType::kFloat32), d.reason);
      EXPECT_TRUE(pool_matches_reference(c));
    }
  }
}

// Windows over the trailing axes whole and the leading ones in steps.
std::vector<WholePlaneWindow> trailing_windows() {
  PoolSpec time_padded = window_spec({3, 7, 7}, {2, 1, 1}, {1, 0, 0, 1, 0, 0});
  PoolSpec time_ceil = window_spec({2, 7, 7}, {2, 7, 7}, {}, true);
  return {
      {"3D 2x7x7 over 16x7x7 (S3D, I3D)", {1, 21, 16, 7, 7}, window_spec({2, 7, 7}, {1, 1, 1})},
      {"3D 3x7x7 over 9x7x7, time padded, stride 2", {2, 5, 9, 7, 7}, time_padded},
      {"3D 2x7x7 over 5x7x7, ceil_mode stride 2", {1, 6, 5, 7, 7}, time_ceil},
      {"3D 2x3x5 over 4x3x5", {1, 9, 4, 3, 5}, window_spec({2, 3, 5}, {1, 1, 1})},
      {"3D 3x3x6 over 6x5x6 (last axis only)", {1, 4, 6, 5, 6}, window_spec({3, 3, 6}, {1, 2, 1})},
      {"2D 3x7 over 9x7, rows padded", {1, 13, 9, 7}, window_spec({3, 7}, {1, 1}, {1, 0, 1, 0})},
  };
}

TEST_F(WholePlane, TrailingAxesFirstMatchTheReference) {
  BatchOutcome outcome;
  uint64_t index = 0;
  int cases = 0;
  const int variants = on_each_cpu_variant([&](CpuVariant variant) {
    for (const WholePlaneWindow& w : trailing_windows()) {
      for (ElementType type : float_types()) {
        Random random(derive_seed(test_seed(), 9903, index++));
        HostTensor X(type, w.shape);
        fill_with_ties(random, &X, 0.1);
        const MaxPoolCase c = make_max_pool_case(w.spec, std::move(X), false);
        const std::string v = planned_verdict("covered axes first", PoolOp::kMaxPool, c.attributes, w.shape, type);
        testing::AssertionResult result = v == "accepted" ? library_matches_reference(c)
                                                          : testing::AssertionFailure() << "verdict: " << v;
        record_variant_case(&outcome, variant, std::string(w.what) + ": " + c.describe(), result);
        ++cases;
      }
      for (ElementType type : {ElementType::kFloat32, ElementType::kFloat64}) {
        for (bool count_include_pad : {false, true}) {
          Random random(derive_seed(test_seed(), 9904, index++));
          PoolSpec spec = w.spec;
          spec.count_include_pad = count_include_pad;
          const PoolCase c = make_filled_sum_pool_case(random, PoolOp::kAveragePool, spec, HostTensor(type, w.shape));
          const std::string v =
              planned_verdict("covered axes first", PoolOp::kAveragePool, c.attributes, w.shape, type);
          testing::AssertionResult result = v == "accepted" ? pool_matches_reference(c)
                                                            : testing::AssertionFailure() << "verdict: " << v;
          record_variant_case(&outcome, variant, std::string(w.what) + ": " + c.describe(), result);
          ++cases;
        }
      }
    }
  });
  EXPECT_EQ(cases, variants * static_cast<int>(trailing_windows().size() * (float_types().size() + 4)));
  EXPECT_EQ(outcome.cases_run, cases);
  EXPECT_TRUE(outcome.failures.empty()) << outcome.report();
}

// Each declined call still matches the reference, through the kernels it takes.
TEST_F(WholePlane, TrailingAxesKeepTheWindowedKernelsWhereTheyMustNot) {
  struct Declined {
    PoolOp op;
    ElementType type;
    Ints shape;
    PoolSpec spec;
    bool with_indices;
    const char* reason;
  };
  const PoolSpec s3d = window_spec({2, 7, 7}, {1, 1, 1});
  const std::vector<Declined> cases = {
      {PoolOp::kAveragePool, ElementType::kFloat16, {1, 5, 6, 7, 7}, s3d, false,
       "AveragePool in a half type (the means would be rounded between the steps)"},
      {PoolOp::kLpPool, ElementType::kFloat32, {1, 5, 6, 7, 7}, s3d, false,
       "LpPool (the second step would raise rounded norms to the p)"},
      {PoolOp::kMaxPool, ElementType::kFloat32, {1, 5, 6, 7, 7}, s3d, true,
       "MaxPool asks for Indices (the global kernels have none)"},
      {PoolOp::kMaxPool, ElementType::kInt8, {1, 5, 6, 7, 7}, s3d, false, "not in this build for this type and rank"},
      {PoolOp::kAveragePool, ElementType::kFloat32, {1, 5, 6, 7, 8}, s3d, false,
       "the last axis's window does not cover it"},
  };
  for (const Declined& d : cases) {
    SCOPED_TRACE(d.reason);
    Random random(derive_seed(test_seed(), 9905, 0));
    if (d.op == PoolOp::kMaxPool) {
      HostTensor X(d.type, d.shape);
      fill_with_ties(random, &X, 0.1);
      const MaxPoolCase c = make_max_pool_case(d.spec, std::move(X), d.with_indices);
      EXPECT_EQ(planned_verdict("covered axes first", d.op, c.attributes, d.shape, d.type, d.with_indices),
                d.reason);
      EXPECT_TRUE(library_matches_reference(c));
    } else {
      const PoolCase c = make_filled_sum_pool_case(random, d.op, d.spec, HostTensor(d.type, d.shape));
      EXPECT_EQ(planned_verdict("covered axes first", d.op, c.attributes, d.shape, d.type), d.reason);
      EXPECT_TRUE(pool_matches_reference(c));
    }
  }
}

}  // namespace
}  // namespace onnxpool_test
