// Leading axes of one tap, stride 1 and no pads, which the planner folds into
// the planes (runtime/plan/unit_axes.h; white box: each case first checks
// how many axes the plan folded, so a comparison cannot quietly test the
// unfolded kernels): MaxPool (with row-major Indices too), AveragePool and
// LpPool against the reference on every CPU variant this machine runs, on
// MViT's 1x3x3 stride-1x2x2 windows, 1x1xN windows and 2D 1xN windows; and
// the calls that must not fold (column-major Indices, a padded or strided
// first axis, a last axis of one tap).
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

// The case checked against the reference when its plan folds `wanted` axes.
testing::AssertionResult folds_and_matches(int wanted, const WindowedCase& c, bool with_indices = false) {
  Plan plan;
  const onnxpool::Status s = plan_windowed_case(c, with_indices, &plan);
  if (!s) return testing::AssertionFailure() << "not planned: " << s.message();
  if (plan.folded_axes != wanted) return testing::AssertionFailure() << "folded " << plan.folded_axes << " axes";
  return c.matches_reference();
}

struct UnitAxesWindow {
  const char* what;
  Ints shape;
  PoolSpec spec;
  int folded;
};

std::vector<UnitAxesWindow> folding_windows() {
  return {
      {"MViT 1x3x3 s1x2x2 p0x1x1", {1, 12, 4, 14, 14}, window_spec({1, 3, 3}, {1, 2, 2}, {0, 1, 1, 0, 1, 1}), 1},
      {"3D 1x1x5 over 3x4x9", {2, 3, 3, 4, 9}, window_spec({1, 1, 5}, {1, 1, 2}, {0, 0, 1, 0, 0, 1}), 2},
      {"3D 1x2x2 s1x2x2 ceil_mode", {1, 5, 3, 7, 7}, window_spec({1, 2, 2}, {1, 2, 2}, {}, true), 1},
      {"2D 1x7 over 5x7", {1, 16, 5, 7}, window_spec({1, 7}, {1, 1}), 1},
      {"2D 1x3 s1x2 p0x1", {1, 9, 6, 13}, window_spec({1, 3}, {1, 2}, {0, 1, 0, 1}), 1},
  };
}

class UnitAxes : public testing::Test {
 protected:
  void TearDown() override { EXPECT_TRUE(onnxpool::set_cpu_variant_limit(CpuVariant::kNative)); }
};

TEST_F(UnitAxes, MaxPoolMatchesTheReferenceWithAndWithoutIndices) {
  BatchOutcome outcome;
  uint64_t index = 0;
  const int variants = on_each_cpu_variant([&](CpuVariant variant) {
    for (ElementType type : max_pool_types()) {
      for (const UnitAxesWindow& w : folding_windows()) {
        for (bool with_indices : {false, true}) {
          Random random(derive_seed(test_seed(), 9910, index++));
          const WindowedCase c = make_windowed_case(random, PoolOp::kMaxPool, type, w.shape, w.spec, with_indices);
          record_variant_case(&outcome, variant, std::string(w.what) + ": " + c.describe(),
                              folds_and_matches(w.folded, c, with_indices));
        }
      }
    }
  });
  EXPECT_EQ(outcome.cases_run, variants * static_cast<int>(max_pool_types().size() * folding_windows().size() * 2));
  EXPECT_TRUE(outcome.failures.empty()) << outcome.report();
}

TEST_F(UnitAxes, AveragePoolAndLpPoolMatchTheReference) {
  BatchOutcome outcome;
  uint64_t index = 0;
  int cases = 0;
  const int variants = on_each_cpu_variant([&](CpuVariant variant) {
    for (ElementType type : float_types()) {
      for (const UnitAxesWindow& w : folding_windows()) {
        for (int form = 0; form < 3; ++form) {  // AveragePool, AveragePool counting pads, LpPool
          const PoolOp op = form < 2 ? PoolOp::kAveragePool : PoolOp::kLpPool;
          Random random(derive_seed(test_seed(), 9911, index++));
          PoolSpec spec = w.spec;
          spec.count_include_pad = form == 1;
          const WindowedCase c = make_windowed_case(random, op, type, w.shape, spec);
          record_variant_case(&outcome, variant, std::string(w.what) + ": " + c.describe(),
                              folds_and_matches(w.folded, c));
          ++cases;
        }
      }
    }
  });
  EXPECT_EQ(cases, variants * static_cast<int>(float_types().size() * folding_windows().size() * 3));
  EXPECT_EQ(outcome.cases_run, cases);
  EXPECT_TRUE(outcome.failures.empty()) << outcome.report();
}

// None of these fold; each still matches the reference.
TEST_F(UnitAxes, CallsThatMustNotFold) {
  PoolSpec column_major = window_spec({1, 3, 3}, {1, 2, 2}, {0, 1, 1, 0, 1, 1});
  column_major.storage_order = 1;
  struct Kept {
    const char* what;
    PoolOp op;
    Ints shape;
    PoolSpec spec;
    bool with_indices;
  };
  const std::vector<Kept> cases = {
      {"column-major Indices", PoolOp::kMaxPool, {1, 6, 4, 14, 14}, column_major, true},
      {"first axis padded", PoolOp::kAveragePool, {1, 6, 4, 14, 14}, window_spec({1, 3, 3}, {1, 2, 2}, {1, 1, 1, 0, 1, 1})},
      {"first axis strided", PoolOp::kMaxPool, {1, 6, 4, 14, 14}, window_spec({1, 3, 3}, {2, 2, 2})},
      {"only the last axis of one tap", PoolOp::kLpPool, {1, 6, 9, 14}, window_spec({3, 1}, {2, 1})},
  };
  for (const Kept& k : cases) {
    SCOPED_TRACE(k.what);
    Random random(derive_seed(test_seed(), 9912, 0));
    const WindowedCase c = make_windowed_case(random, k.op, ElementType::kFloat32, k.shape, k.spec, k.with_indices);
    EXPECT_TRUE(folds_and_matches(0, c, k.with_indices));
  }
}

}  // namespace
}  // namespace onnxpool_test
