// GlobalMaxPool, GlobalAveragePool and GlobalLpPool on hundreds of random
// inputs per run: every float type, 1 to 4 spatial axes (X of rank 3 to 6),
// planes from one element to about 1700, N and C up to 3. GlobalMaxPool must
// match the reference exactly; the sum-based two within the tolerance of
// support/pool_expectation.h. The seed is printed; ONNXPOOL_TEST_SEED replays
// a run and ONNXPOOL_TEST_SCALE scales the case count.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <ostream>
#include <string>

#include "support/float_type_info.h"
#include "support/pool_check.h"
#include "support/pool_expectation.h"
#include "support/test_settings.h"

namespace onnxpool_test {
namespace {

using onnxpool::PoolOp;

// 3 operators x 4 types x 4 ranks = 48 combinations x 8 = 384 cases at scale 1.
constexpr int kCasesPerCombination = 8;
constexpr uint64_t kStreamBase = 8000;

struct OpTypeRank {
  PoolOp op;
  ElementType type;
  int spatial_rank;
};

std::string label(const OpTypeRank& p) {
  return std::string(onnxpool::op_name(p.op)) + "_" + type_label(p.type) + "_rank" + std::to_string(p.spatial_rank + 2);
}

void PrintTo(const OpTypeRank& p, std::ostream* out) { *out << label(p); }

const std::vector<PoolOp> kGlobalOps{PoolOp::kGlobalMaxPool, PoolOp::kGlobalAveragePool, PoolOp::kGlobalLpPool};

std::vector<OpTypeRank> all_combinations() {
  std::vector<OpTypeRank> all;
  for (PoolOp op : kGlobalOps) {
    for (ElementType type : float_types()) {
      for (int spatial_rank = 1; spatial_rank <= 4; ++spatial_rank) all.push_back({op, type, spatial_rank});
    }
  }
  return all;
}

uint64_t stream_for(const OpTypeRank& p) {
  return kStreamBase + static_cast<uint64_t>(p.op) * 256 + static_cast<uint64_t>(p.type) * 16 +
         static_cast<uint64_t>(p.spatial_rank);
}

class GlobalPoolRandomCases : public testing::TestWithParam<OpTypeRank> {};

TEST_P(GlobalPoolRandomCases, MatchReference) {
  const OpTypeRank& p = GetParam();
  const int count = scaled_case_count(kCasesPerCombination);
  const BatchOutcome outcome = run_random_pool_cases(stream_for(p), count, p.op, {p.type}, {p.spatial_rank});
  EXPECT_EQ(outcome.cases_run, count);
  EXPECT_TRUE(outcome.failures.empty()) << outcome.report();
}

INSTANTIATE_TEST_SUITE_P(AllOpsTypesAndRanks, GlobalPoolRandomCases, testing::ValuesIn(all_combinations()),
                         [](const testing::TestParamInfo<OpTypeRank>& param_info) { return label(param_info.param); });

void count_features(const PoolCase& c, std::map<std::string, int>* seen) {
  const std::string op = onnxpool::op_name(c.op);
  const auto add = [&](const std::string& feature, bool reached) { (*seen)[op + ": " + feature] += reached; };
  const std::vector<int64_t>& shape = c.X.shape();
  const int64_t plane = c.X.size() / (shape[0] * shape[1]);
  add("rank " + std::to_string(shape.size()), true);
  add("plane of 1", plane == 1);
  add("plane of 1000 or more", plane >= 1000);
  add("odd plane above 32", plane > 32 && plane % 2 == 1);
  add("N and C > 1", shape[0] > 1 && shape[1] > 1);
  add("through onnxpool::pool", c.through_dispatcher);
  if (c.op == PoolOp::kGlobalLpPool) add("p " + std::to_string(c.spec.p), true);
  const PoolExpectation e = expected_pool_result(c);
  bool nan_output = false, infinite_output = false;
  for (int64_t i = 0; i < e.values.size(); ++i) {
    nan_output = nan_output || std::isnan(e.values.get(i));
    infinite_output = infinite_output || std::isinf(e.values.get(i));
  }
  add("NaN output", nan_output);
  add("infinite output", infinite_output);
  bool tiny = false, huge = false;
  for (int64_t i = 0; i < c.X.size(); ++i) {
    const double v = std::fabs(c.X.get(i));
    tiny = tiny || (v > 0 && v < std::ldexp(1.0, smallest_exponent(c.X.type()) + 10));
    huge = huge || (std::isfinite(v) && v > std::ldexp(1.0, largest_exponent(c.X.type()) - 13));
  }
  add("tiny input", tiny);
  add("huge input", huge);
}

TEST(GlobalPoolRandomCaseGenerator, ReachesEveryFeature) {
  std::map<std::string, int> seen;
  for (const OpTypeRank& p : all_combinations()) {
    for (int index = 0; index < kCasesPerCombination; ++index) {
      count_features(pool_batch_case(stream_for(p), index, p.op, {p.type}, {p.spatial_rank}), &seen);
    }
  }
  for (PoolOp op : kGlobalOps) {
    std::vector<std::string> features{"rank 3", "rank 4", "rank 5", "rank 6", "plane of 1", "plane of 1000 or more",
                                      "odd plane above 32", "N and C > 1", "through onnxpool::pool", "NaN output",
                                      "infinite output"};
    // The magnitudes matter to the sums (GlobalMaxPool compares exactly).
    if (op != PoolOp::kGlobalMaxPool) features.insert(features.end(), {"tiny input", "huge input"});
    if (op == PoolOp::kGlobalLpPool) {
      for (int p = 1; p <= 8; ++p) features.push_back("p " + std::to_string(p));
    }
    for (const std::string& feature : features) {
      const std::string key = std::string(onnxpool::op_name(op)) + ": " + feature;
      // Eight p values share GlobalLpPool's 128 cases: a lower bar for each.
      EXPECT_GE(seen[key], feature.rfind("p ", 0) == 0 ? 2 : 3) << "random cases rarely reach: " << key;
    }
  }
}

}  // namespace
}  // namespace onnxpool_test
