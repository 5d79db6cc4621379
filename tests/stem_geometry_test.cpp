// The ResNet stem's geometry, 3x3 / stride 2 / pad 1 on 112-wide planes, has
// loop nests of its own in the x86 kernels, with the x loops unrolled
// (generators/schedules/cpu_schedule.cpp, kUnrolledGeometries): the rows
// stage's copy serves any 3-row kernel on a 112-wide input, the output's the
// 56 outputs of a 3x3 stride-2 window. Every windowed operator on it, every
// type, on every CPU variant, against the reference; with neighbours that
// take one copy and not the other: ceil_mode (57 outputs: rows only), 3x3
// stride 1 (rows only) and a 111-wide plane (output only: 56 outputs).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "onnxpool/pooling.h"
#include "support/batch_outcome.h"
#include "support/cpu_variants.h"
#include "support/float_type_info.h"
#include "support/maxpool_check.h"
#include "support/pool_cases.h"
#include "support/pool_check.h"
#include "support/random.h"
#include "support/test_settings.h"
#include "support/value_fills.h"

namespace onnxpool_test {
namespace {

using onnxpool::PoolOp;

struct StemShape {
  std::string name;
  PoolSpec spec;
  int64_t width;
};

std::vector<StemShape> stem_shapes() {
  return {
      {"stem", window_spec({3, 3}, {2, 2}, {1, 1, 1, 1}), 112},
      {"stem_ceil", window_spec({3, 3}, {2, 2}, {1, 1, 1, 1}, /*ceil_mode=*/true), 112},
      {"stride1", window_spec({3, 3}, {1, 1}, {1, 1, 1, 1}), 112},
      {"stem_111_wide", window_spec({3, 3}, {2, 2}, {1, 1, 1, 1}), 111},
  };
}

// Two planes of 9 rows: the output's 5 rows include both padded edges.
HostTensor stem_input(ElementType type, int64_t width) { return HostTensor(type, {1, 2, 9, width}); }

TEST(StemGeometry, MaxPoolMatchesTheReferenceOnEveryVariant) {
  BatchOutcome outcome;
  uint64_t index = 0;
  const int variants = on_each_cpu_variant([&](onnxpool::CpuVariant variant) {
    for (const StemShape& shape : stem_shapes()) {
      for (ElementType type : max_pool_types()) {
        for (bool with_indices : {false, true}) {
          Random random(derive_seed(test_seed(), 9500, index++));
          HostTensor X = stem_input(type, shape.width);
          fill_with_ties(random, &X, 0.03);
          const MaxPoolCase c = make_max_pool_case(shape.spec, X, with_indices);
          record_variant_case(&outcome, variant, shape.name + ": " + c.describe(), library_matches_reference(c));
        }
      }
    }
  });
  EXPECT_EQ(outcome.cases_run, variants * static_cast<int>(stem_shapes().size() * max_pool_types().size() * 2));
  EXPECT_TRUE(outcome.failures.empty()) << outcome.report();
}

TEST(StemGeometry, AveragePoolAndLpPoolMatchTheReferenceOnEveryVariant) {
  BatchOutcome outcome;
  uint64_t index = 0;
  const std::vector<PoolOp> ops{PoolOp::kAveragePool, PoolOp::kLpPool};
  const int variants = on_each_cpu_variant([&](onnxpool::CpuVariant variant) {
    for (const StemShape& shape : stem_shapes()) {
      for (PoolOp op : ops) {
        for (ElementType type : float_types()) {
          Random random(derive_seed(test_seed(), 9600, index++));
          PoolSpec spec = shape.spec;
          spec.p = 1 + static_cast<int64_t>(index % 3);      // read by LpPool only
          spec.count_include_pad = index % 2 == 0;          // read by AveragePool only
          const PoolCase c = make_filled_sum_pool_case(random, op, spec, stem_input(type, shape.width));
          record_variant_case(&outcome, variant, shape.name + ": " + c.describe(), pool_matches_reference(c));
        }
      }
    }
  });
  EXPECT_EQ(outcome.cases_run,
            variants * static_cast<int>(stem_shapes().size() * ops.size() * float_types().size()));
  EXPECT_TRUE(outcome.failures.empty()) << outcome.report();
}

}  // namespace
}  // namespace onnxpool_test
