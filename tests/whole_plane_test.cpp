// Windowed pools whose one window covers the whole plane, which the planner
// sends to the global pools' kernels (runtime/plan/whole_plane.h; white box:
// each case first checks the plan's verdict, so a comparison cannot quietly
// test the windowed kernel instead): MaxPool, AveragePool and LpPool against
// the reference on every CPU variant this machine runs, over every type
// each has (MaxPool's integer types keep the windowed kernels), on 1D, 2D
// and 3D planes, with pads, ceil_mode and strides that leave one window; and
// the windows just short of the plane, which must not take them. Then
// windows that cover only the trailing axes whole, which reduce those first
// (runtime/plan/covered_axes.h), the same way.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "onnxpool/pooling.h"
#include "plan/plan.h"
#include "support/cpu_variants.h"
#include "support/float_type_info.h"
#include "support/maxpool_check.h"
#include "support/plan_verdict.h"
#include "support/pool_cases.h"
#include "support/random.h"
#include "support/test_settings.h"
#include "support/windowed_case.h"

namespace onnxpool_test {
namespace {

using onnxpool::CpuVariant;
using onnxpool::PoolOp;
using onnxpool::detail::Plan;
using Ints = std::vector<int64_t>;

// The planner's verdict on `candidate` for case `c`.
std::string planned_verdict(const char* candidate, const WindowedCase& c, bool with_indices = false) {
  Plan plan;
  const onnxpool::Status s = plan_windowed_case(c, with_indices, &plan);
  return s ? verdict(plan, candidate) : "not planned: " + s.message();
}

// The case checked against the reference when the plan's verdict on
// `candidate` is `wanted`.
testing::AssertionResult takes_and_matches(const char* candidate, const std::string& wanted, const WindowedCase& c,
                                           bool with_indices = false) {
  const std::string v = planned_verdict(candidate, c, with_indices);
  if (v != wanted) return testing::AssertionFailure() << "verdict on '" << candidate << "': " << v;
  return c.matches_reference();
}

struct Window {
  const char* what;
  Ints shape;
  PoolSpec spec;
};

// Windows that leave one output per axis and cover every element.
std::vector<Window> covering_windows() {
  return {
      {"7x7 on 7x7 (ResNet's and MobileNet's exports)", {1, 37, 7, 7}, window_spec({7, 7}, {1, 1})},
      {"13x13 on 13x13 stride 13 (SqueezeNet)", {2, 5, 13, 13}, window_spec({13, 13}, {13, 13})},
      {"8x8 on 8x8, ceil_mode", {1, 9, 8, 8}, window_spec({8, 8}, {2, 2}, {}, true)},
      {"7x7 on 7x7, ceil_mode stride 2", {1, 3, 7, 7}, window_spec({7, 7}, {2, 2}, {}, true)},
      {"9x8 over 7x7 padded", {1, 6, 7, 7}, window_spec({9, 8}, {1, 1}, {1, 0, 1, 1})},
      {"1D 100 on 100", {1, 11, 100}, window_spec({100}, {1})},
      {"3D 2x7x7 on 2x7x7", {1, 4, 2, 7, 7}, window_spec({2, 7, 7}, {1, 1, 1})},
      {"1x1 plane", {1, 17, 1, 1}, window_spec({1, 1}, {1, 1})},
  };
}

// Windows over the trailing axes whole and the leading ones in steps.
std::vector<Window> trailing_windows() {
  return {
      {"3D 2x7x7 over 16x7x7 (S3D, I3D)", {1, 21, 16, 7, 7}, window_spec({2, 7, 7}, {1, 1, 1})},
      {"3D 3x7x7 over 9x7x7, time padded, stride 2", {2, 5, 9, 7, 7},
       window_spec({3, 7, 7}, {2, 1, 1}, {1, 0, 0, 1, 0, 0})},
      {"3D 2x7x7 over 5x7x7, ceil_mode stride 2", {1, 6, 5, 7, 7}, window_spec({2, 7, 7}, {2, 7, 7}, {}, true)},
      {"3D 2x3x5 over 4x3x5", {1, 9, 4, 3, 5}, window_spec({2, 3, 5}, {1, 1, 1})},
      {"3D 3x3x6 over 6x5x6 (last axis only)", {1, 4, 6, 5, 6}, window_spec({3, 3, 6}, {1, 2, 1})},
      {"2D 3x7 over 9x7, rows padded", {1, 13, 9, 7}, window_spec({3, 7}, {1, 1}, {1, 0, 1, 0})},
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
      for (const Window& w : covering_windows()) {
        Random random(derive_seed(test_seed(), 9900, index++));
        const WindowedCase c = make_windowed_case(random, PoolOp::kMaxPool, type, w.shape, w.spec);
        // GlobalMaxPool has no integer types in ONNX, nor kernels for them here.
        const std::string wanted = is_floating_point(type) ? "accepted" : "not in this build for this type and rank";
        record_variant_case(&outcome, variant, std::string(w.what) + ": " + c.describe(),
                            takes_and_matches("whole plane", wanted, c));
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
        for (const Window& w : covering_windows()) {
          for (int64_t p : {int64_t{1}, int64_t{2}, int64_t{7}}) {
            if (op == PoolOp::kAveragePool && p != 2) continue;
            Random random(derive_seed(test_seed(), 9901, index++));
            PoolSpec spec = w.spec;
            spec.p = p;
            const WindowedCase c = make_windowed_case(random, op, type, w.shape, spec);
            record_variant_case(&outcome, variant, std::string(w.what) + ": " + c.describe(),
                                takes_and_matches("whole plane", "accepted", c));
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

TEST_F(WholePlane, TrailingAxesFirstMatchTheReference) {
  BatchOutcome outcome;
  uint64_t index = 0;
  int cases = 0;
  const int variants = on_each_cpu_variant([&](CpuVariant variant) {
    for (const Window& w : trailing_windows()) {
      for (ElementType type : float_types()) {
        Random random(derive_seed(test_seed(), 9903, index++));
        const WindowedCase c = make_windowed_case(random, PoolOp::kMaxPool, type, w.shape, w.spec);
        record_variant_case(&outcome, variant, std::string(w.what) + ": " + c.describe(),
                            takes_and_matches("covered axes first", "accepted", c));
        ++cases;
      }
      for (ElementType type : {ElementType::kFloat32, ElementType::kFloat64}) {
        for (bool count_include_pad : {false, true}) {
          Random random(derive_seed(test_seed(), 9904, index++));
          PoolSpec spec = w.spec;
          spec.count_include_pad = count_include_pad;
          const WindowedCase c = make_windowed_case(random, PoolOp::kAveragePool, type, w.shape, spec);
          record_variant_case(&outcome, variant, std::string(w.what) + ": " + c.describe(),
                              takes_and_matches("covered axes first", "accepted", c));
          ++cases;
        }
      }
    }
  });
  EXPECT_EQ(cases, variants * static_cast<int>(trailing_windows().size() * (float_types().size() + 4)));
  EXPECT_EQ(outcome.cases_run, cases);
  EXPECT_TRUE(outcome.failures.empty()) << outcome.report();
}

// Calls one of the two candidates must decline, with the reason; each still
// matches the reference through the kernels it takes.
struct Declined {
  const char* candidate;
  PoolOp op;
  ElementType type;
  Ints shape;
  PoolSpec spec;
  bool with_indices;
  const char* reason;
};

std::vector<Declined> declined_calls() {
  PoolSpec counted = window_spec({8, 8}, {1, 1}, {1, 1, 0, 0});
  counted.count_include_pad = true;
  PoolSpec dilated = window_spec({4, 4}, {1, 1});
  dilated.dilations = {2, 2};
  const PoolSpec s3d = window_spec({2, 7, 7}, {1, 1, 1});
  const ElementType f32 = ElementType::kFloat32;
  const Ints plane = {1, 5, 7, 7}, video = {1, 5, 6, 7, 7};
  const char* indices = "MaxPool asks for Indices (the global kernels have none)";
  return {
      // AveragePool counting its pads divides by the padded window, not the plane.
      {"whole plane", PoolOp::kAveragePool, f32, plane, counted, false,
       "AveragePool counts its pads (count_include_pad = 1)"},
      {"whole plane", PoolOp::kMaxPool, f32, plane, window_spec({7, 7}, {1, 1}), true, indices},
      {"whole plane", PoolOp::kMaxPool, f32, plane, dilated, false, "a dilated window"},
      {"whole plane", PoolOp::kLpPool, f32, plane, window_spec({7, 6}, {1, 2}), false,
       "the window leaves part of the plane out"},
      {"whole plane", PoolOp::kAveragePool, f32, plane, window_spec({7, 6}, {1, 1}), false,
       "more than one output along an axis"},
      {"covered axes first", PoolOp::kAveragePool, ElementType::kFloat16, video, s3d, false,
       "AveragePool in a half type (the means would be rounded between the steps)"},
      {"covered axes first", PoolOp::kLpPool, f32, video, s3d, false,
       "LpPool (the second step would raise rounded norms to the p)"},
      {"covered axes first", PoolOp::kMaxPool, f32, video, s3d, true, indices},
      {"covered axes first", PoolOp::kMaxPool, ElementType::kInt8, video, s3d, false,
       "not in this build for this type and rank"},
      {"covered axes first", PoolOp::kAveragePool, f32, {1, 5, 6, 7, 8}, s3d, false,
       "the last axis's window does not cover it"},
  };
}

TEST_F(WholePlane, CallsTheCandidatesMustDecline) {
  for (const Declined& d : declined_calls()) {
    SCOPED_TRACE(std::string(d.candidate) + ": " + d.reason);
    Random random(derive_seed(test_seed(), 9905, 0));
    const WindowedCase c = make_windowed_case(random, d.op, d.type, d.shape, d.spec, d.with_indices);
    EXPECT_TRUE(takes_and_matches(d.candidate, d.reason, c, d.with_indices));
  }
}

}  // namespace
}  // namespace onnxpool_test
