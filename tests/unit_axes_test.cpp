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
#include "support/maxpool_cases.h"
#include "support/maxpool_check.h"
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

// How many leading axes the plan for `op` on X of `shape` folds, or -1 when it
// is not planned.
int folded_axes(PoolOp op, const onnxpool::Attributes& attrs, const Ints& shape, ElementType type,
                bool with_indices = false) {
  onnxpool::PoolAttributes attributes;
  if (!onnxpool::PoolAttributes::parse(op, attrs, &attributes)) return -1;
  const onnxpool::TensorView X(nullptr, type, shape);
  Plan plan;
  if (!onnxpool::detail::plan_call(op, attributes, X, nullptr, nullptr, with_indices, PlanContext::current(), &plan)) {
    return -1;
  }
  return plan.folded_axes;
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
          HostTensor X(type, w.shape);
          fill_with_ties(random, &X, 0.1);
          const MaxPoolCase c = make_max_pool_case(w.spec, std::move(X), with_indices);
          const int folded = folded_axes(PoolOp::kMaxPool, c.attributes, w.shape, type, with_indices);
          testing::AssertionResult result = folded == w.folded
                                                ? library_matches_reference(c)
                                                : testing::AssertionFailure() << "folded " << folded << " axes";
          record_variant_case(&outcome, variant, std::string(w.what) + ": " + c.describe(), result);
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
          const PoolCase c = make_filled_sum_pool_case(random, op, spec, HostTensor(type, w.shape));
          const int folded = folded_axes(op, c.attributes, w.shape, type);
          testing::AssertionResult result = folded == w.folded
                                                ? pool_matches_reference(c)
                                                : testing::AssertionFailure() << "folded " << folded << " axes";
          record_variant_case(&outcome, variant, std::string(w.what) + ": " + c.describe(), result);
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
    if (k.op == PoolOp::kMaxPool) {
      HostTensor X(ElementType::kFloat32, k.shape);
      fill_with_ties(random, &X, 0.1);
      const MaxPoolCase c = make_max_pool_case(k.spec, std::move(X), k.with_indices);
      EXPECT_EQ(folded_axes(k.op, c.attributes, k.shape, ElementType::kFloat32, k.with_indices), 0);
      EXPECT_TRUE(library_matches_reference(c));
    } else {
      const PoolCase c = make_filled_sum_pool_case(random, k.op, k.spec, HostTensor(ElementType::kFloat32, k.shape));
      EXPECT_EQ(folded_axes(k.op, c.attributes, k.shape, ElementType::kFloat32), 0);
      EXPECT_TRUE(pool_matches_reference(c));
    }
  }
}

}  // namespace
}  // namespace onnxpool_test
