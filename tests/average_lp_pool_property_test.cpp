// AveragePool and LpPool on hundreds of random nodes per run, compared with
// the float64 reference (support/pool_expectation.h states the tolerance):
// every float type, spatial ranks 1-3, random kernel, strides, dilations,
// asymmetric pads, auto_pad, ceil_mode, count_include_pad and p in 1..8,
// values from small integers to the edges of each type's range. Then the
// shapes the kernels are likely to specialise, at widths that leave every
// kind of vector tail. The seed is printed; ONNXPOOL_TEST_SEED replays a run
// and ONNXPOOL_TEST_SCALE scales the case count.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <ostream>
#include <string>
#include <utility>

#include "reference/reference_pooling.h"
#include "support/op_type_rank.h"
#include "support/float_type_info.h"
#include "support/pool_cases.h"
#include "support/pool_check.h"
#include "support/pool_expectation.h"
#include "support/test_settings.h"
#include "support/value_fills.h"

namespace onnxpool_test {
namespace {

using onnxpool::PoolOp;

// 2 operators x 4 types x 3 ranks = 24 combinations x 20 = 480 cases at scale 1.
constexpr int kCasesPerCombination = 20;
constexpr uint64_t kStreamBase = 7000;

std::vector<OpTypeRank> all_combinations() {
  std::vector<OpTypeRank> all;
  for (PoolOp op : {PoolOp::kAveragePool, PoolOp::kLpPool}) {
    for (ElementType type : float_types()) {
      for (int rank = 1; rank <= 3; ++rank) all.push_back({op, type, rank});
    }
  }
  return all;
}

uint64_t stream_for(const OpTypeRank& p) {
  return kStreamBase + static_cast<uint64_t>(p.op) * 256 + static_cast<uint64_t>(p.type) * 16 +
         static_cast<uint64_t>(p.rank);
}

class AverageLpRandomCases : public testing::TestWithParam<OpTypeRank> {};

TEST_P(AverageLpRandomCases, MatchReference) {
  const OpTypeRank& p = GetParam();
  const int count = scaled_case_count(kCasesPerCombination);
  const BatchOutcome outcome = run_random_pool_cases(stream_for(p), count, p.op, {p.type}, {p.rank});
  EXPECT_EQ(outcome.cases_run, count);
  EXPECT_TRUE(outcome.failures.empty()) << outcome.report();
}

INSTANTIATE_TEST_SUITE_P(AllOpsTypesAndRanks, AverageLpRandomCases, testing::ValuesIn(all_combinations()),
                         param_name);

bool any_above_one(const std::vector<int64_t>& values) {
  return std::any_of(values.begin(), values.end(), [](int64_t v) { return v > 1; });
}

bool asymmetric(const std::vector<int64_t>& pads) {
  const size_t half = pads.size() / 2;
  return !std::equal(pads.begin(), pads.begin() + half, pads.begin() + half);
}

// A window with no tap inside X: the reference's count_include_pad = 0
// average of all-ones data is then 0/0.
bool has_window_without_input_tap(const PoolSpec& spec, const HostTensor& X) {
  PoolSpec excluding = spec;
  excluding.count_include_pad = false;
  HostTensor ones(ElementType::kFloat64, X.shape());
  for (int64_t i = 0; i < ones.size(); ++i) ones.set(i, 1.0);
  const HostTensor averages = reference_average_pool(excluding, ones);
  for (int64_t i = 0; i < averages.size(); ++i) {
    if (std::isnan(averages.get(i))) return true;
  }
  return false;
}

// Adds one to each feature (and corner) that the case reaches.
void count_features(const PoolCase& c, std::map<std::string, int>* seen) {
  const std::string op = onnxpool::op_name(c.op);
  const auto add = [&](const std::string& feature, bool reached) { (*seen)[op + ": " + feature] += reached; };
  add("auto_pad " + c.spec.auto_pad, true);
  add("ceil_mode", c.spec.ceil_mode);
  add("dilations > 1", any_above_one(c.spec.dilations));
  add("strides > 1", any_above_one(c.spec.strides));
  add("asymmetric pads", asymmetric(c.spec.pads));
  add("last axis >= 33", c.X.shape().back() >= 33);
  add("odd last axis", c.X.shape().back() % 2 == 1);
  add("N and C > 1", c.X.shape()[0] > 1 && c.X.shape()[1] > 1);
  add("window without input tap", has_window_without_input_tap(c.spec, c.X));
  add("through onnxpool::pool", c.through_dispatcher);
  if (c.op == PoolOp::kAveragePool) add(c.spec.count_include_pad ? "count_include_pad 1" : "count_include_pad 0", true);
  if (c.op == PoolOp::kLpPool) add("p " + std::to_string(c.spec.p), true);
  bool subnormal_input = false, huge_input = false;
  for (int64_t i = 0; i < c.X.size(); ++i) {
    const double v = std::fabs(c.X.get(i));
    subnormal_input = subnormal_input || (v > 0 && v < std::ldexp(1.0, smallest_exponent(c.X.type()) + 10));
    huge_input = huge_input || (std::isfinite(v) && v > std::ldexp(1.0, largest_exponent(c.X.type()) - 13));
  }
  add("tiny input", subnormal_input);
  add("huge input", huge_input);
  const PoolExpectation e = expected_pool_result(c);
  bool nan_output = false, infinite_output = false, zero_output = false;
  for (int64_t i = 0; i < e.values.size(); ++i) {
    nan_output = nan_output || std::isnan(e.values.get(i));
    infinite_output = infinite_output || std::isinf(e.values.get(i));
    zero_output = zero_output || e.values.get(i) == 0.0;
  }
  add("NaN output", nan_output);
  add("infinite output", infinite_output);
  add("zero output", zero_output);
}

// The random cases are only worth what they reach: check, without the
// library, that one run's cases reach every feature and corner.
TEST(AverageLpRandomCaseGenerator, ReachesEveryFeature) {
  std::map<std::string, int> seen;
  for (const OpTypeRank& p : all_combinations()) {
    for (int index = 0; index < kCasesPerCombination; ++index) {
      count_features(pool_batch_case(stream_for(p), index, p.op, {p.type}, {p.rank}), &seen);
    }
  }
  std::vector<std::string> features{"auto_pad NOTSET", "auto_pad SAME_UPPER", "auto_pad SAME_LOWER", "auto_pad VALID",
                                    "ceil_mode", "dilations > 1", "strides > 1", "asymmetric pads", "last axis >= 33",
                                    "odd last axis", "N and C > 1", "window without input tap",
                                    "through onnxpool::pool", "tiny input", "huge input", "NaN output",
                                    "infinite output", "zero output"};
  for (PoolOp op : {PoolOp::kAveragePool, PoolOp::kLpPool}) {
    std::vector<std::string> own = features;
    if (op == PoolOp::kAveragePool) {
      own.insert(own.end(), {"count_include_pad 0", "count_include_pad 1"});
    } else {
      for (int p = 1; p <= 8; ++p) own.push_back("p " + std::to_string(p));
    }
    for (const std::string& feature : own) {
      const std::string key = std::string(onnxpool::op_name(op)) + ": " + feature;
      EXPECT_GE(seen[key], 3) << "random cases rarely reach: " << key;
    }
  }
}

// ---- The shapes real networks use, at widths around every vector width ----

struct CommonShape {
  std::string name;
  PoolOp op;
  PoolSpec spec;
  uint64_t stream;  // of the random values
};

void PrintTo(const CommonShape& shape, std::ostream* out) { *out << shape.name; }

std::vector<CommonShape> common_shapes() {
  std::vector<CommonShape> shapes;
  for (PoolOp op : {PoolOp::kAveragePool, PoolOp::kLpPool}) {
    const bool average = op == PoolOp::kAveragePool;
    PoolSpec k3s2p1 = window_spec({3, 3}, {2, 2}, {1, 1, 1, 1});
    PoolSpec k3s1p1 = window_spec({3, 3}, {1, 1}, {1, 1, 1, 1});
    PoolSpec k2s2 = window_spec({2, 2}, {2, 2});
    PoolSpec k3s2p1_ceil = k3s2p1;
    k3s2p1_ceil.ceil_mode = true;
    PoolSpec k3s2_same = window_spec({3, 3}, {2, 2});
    k3s2_same.auto_pad = "SAME_UPPER";
    if (average) {
      k3s1p1.count_include_pad = true;  // Inception's average pool
      k3s2p1_ceil.count_include_pad = true;
    } else {
      k3s1p1.p = 1;
      k2s2.p = 3;
      k3s2_same.p = 4;
    }
    const std::string prefix = onnxpool::op_name(op);
    for (const auto& [name, spec] : std::vector<std::pair<const char*, PoolSpec>>{{"_k3x3_s2_p1", k3s2p1},
                                                                                {"_k3x3_s1_p1", k3s1p1},
                                                                                {"_k2x2_s2", k2s2},
                                                                                {"_k3x3_s2_p1_ceil", k3s2p1_ceil},
                                                                                {"_k3x3_s2_same_upper", k3s2_same}}) {
      shapes.push_back({prefix + name, op, spec, 7800 + 10 * shapes.size()});
    }
  }
  return shapes;
}

class AverageLpCommonShapes : public testing::TestWithParam<CommonShape> {};

TEST_P(AverageLpCommonShapes, MatchReferenceAtManyWidths) {
  const CommonShape& shape = GetParam();
  int case_index = 0;
  BatchOutcome outcome;
  for (ElementType type : float_types()) {
    for (int64_t height : schedule_edge_heights()) {
      for (int64_t width : schedule_edge_widths()) {
        // An unpadded 2-wide kernel does not fit a 1-wide input (that is an invalid node).
        if (width < 2 && shape.spec.pads.empty() && shape.spec.auto_pad == "NOTSET") continue;
        Random random(derive_seed(test_seed(), shape.stream, static_cast<uint64_t>(case_index++)));
        const PoolCase c = make_filled_sum_pool_case(random, shape.op, shape.spec, HostTensor(type, {2, 3, height, width}));
        const testing::AssertionResult result = pool_matches_reference(c);
        ++outcome.cases_run;
        if (!result) outcome.add_failure(c.describe() + "\n  " + result.message());
      }
    }
  }
  EXPECT_GT(outcome.cases_run, 100);
  EXPECT_TRUE(outcome.failures.empty()) << outcome.report();
}

INSTANTIATE_TEST_SUITE_P(Shapes, AverageLpCommonShapes, testing::ValuesIn(common_shapes()),
                         [](const testing::TestParamInfo<CommonShape>& param_info) { return param_info.param.name; });

// The 3D video shape of bench/README.md, 2x2x2 stride 2, at several widths.
TEST(AverageLpVideoShape, TwoByTwoByTwoStrideTwoAtManyWidths) {
  BatchOutcome outcome;
  for (PoolOp op : {PoolOp::kAveragePool, PoolOp::kLpPool}) {
    for (ElementType type : float_types()) {
      for (int64_t width : {2, 9, 16, 17, 33, 65}) {
        Random random(derive_seed(test_seed(), 7990, static_cast<uint64_t>(width) * 8 + static_cast<uint64_t>(type)));
        const PoolCase c =
            make_filled_sum_pool_case(random, op, window_spec({2, 2, 2}, {2, 2, 2}), HostTensor(type, {1, 2, 4, 3, width}));
        const testing::AssertionResult result = pool_matches_reference(c);
        ++outcome.cases_run;
        if (!result) outcome.add_failure(c.describe() + "\n  " + result.message());
      }
    }
  }
  EXPECT_TRUE(outcome.failures.empty()) << outcome.report();
}

}  // namespace
}  // namespace onnxpool_test
