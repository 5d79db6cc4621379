// MaxPool on hundreds of random nodes per run, compared exactly with the
// reference: every element type, spatial ranks 1-3, random kernel, strides,
// dilations, asymmetric pads, auto_pad, ceil_mode, storage_order, with and
// without Indices. The seed is printed; ONNXPOOL_TEST_SEED replays a run and
// ONNXPOOL_TEST_SCALE scales the case count.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <ostream>

#include "reference/reference_pooling.h"
#include "support/maxpool_check.h"
#include "support/test_settings.h"

namespace onnxpool_test {
namespace {

// 18 (type, rank) combinations x 24 = 432 cases at scale 1: about a second.
constexpr int kCasesPerTypeAndRank = 24;
constexpr uint64_t kStreamBase = 1000;

struct TypeAndRank {
  ElementType type;
  int rank;
};

// Readable parameters in test output and ctest names.
void PrintTo(const TypeAndRank& p, std::ostream* out) { *out << type_label(p.type) << ' ' << p.rank << 'd'; }

std::vector<TypeAndRank> all_types_and_ranks() {
  std::vector<TypeAndRank> all;
  for (ElementType type : max_pool_types()) {
    for (int rank = 1; rank <= 3; ++rank) all.push_back({type, rank});
  }
  return all;
}

uint64_t stream_for(ElementType type, int rank) {
  return kStreamBase + static_cast<uint64_t>(type) * 16 + static_cast<uint64_t>(rank);
}

class MaxPoolRandomCases : public testing::TestWithParam<TypeAndRank> {};

TEST_P(MaxPoolRandomCases, MatchReference) {
  const auto [type, rank] = GetParam();
  const int count = scaled_case_count(kCasesPerTypeAndRank);
  const BatchOutcome outcome = run_random_max_pool_cases(stream_for(type, rank), count, {type}, {rank});
  EXPECT_EQ(outcome.cases_run, count);
  EXPECT_TRUE(outcome.failures.empty()) << outcome.report();
}

INSTANTIATE_TEST_SUITE_P(AllTypesAndRanks, MaxPoolRandomCases, testing::ValuesIn(all_types_and_ranks()),
                         [](const testing::TestParamInfo<TypeAndRank>& param_info) {
                           const TypeAndRank& p = param_info.param;
                           return std::string(type_label(p.type)) + "_" + std::to_string(p.rank) + "d";
                         });

bool any_above_one(const std::vector<int64_t>& values) {
  return std::any_of(values.begin(), values.end(), [](int64_t v) { return v > 1; });
}

bool asymmetric(const std::vector<int64_t>& pads) {
  const size_t half = pads.size() / 2;
  return !std::equal(pads.begin(), pads.begin() + half, pads.begin() + half);
}

// Adds one to each feature (and corner) that the case reaches.
void count_features(const MaxPoolCase& c, std::map<std::string, int>* seen) {
  const MaxPoolResult r = reference_max_pool(c.spec, c.X);
  ++(*seen)["auto_pad " + c.spec.auto_pad];
  (*seen)["ceil_mode"] += c.spec.ceil_mode;
  (*seen)["storage_order 1 with Indices"] += c.spec.storage_order == 1 && c.with_indices;
  (*seen)["without Indices"] += !c.with_indices;
  (*seen)["dilations > 1"] += any_above_one(c.spec.dilations);
  (*seen)["strides > 1"] += any_above_one(c.spec.strides);
  (*seen)["asymmetric pads"] += asymmetric(c.spec.pads);
  (*seen)["last axis >= 33"] += c.X.shape().back() >= 33;
  bool window_in_padding = false, nan_output = false, infinite_output = false;
  for (int64_t i = 0; i < r.Y.size(); ++i) {
    window_in_padding = window_in_padding || r.Indices.get_int64(i) == -1;
    nan_output = nan_output || r.Y.is_nan(i);
    infinite_output = infinite_output || std::isinf(r.Y.get(i));
  }
  (*seen)["window only in padding"] += window_in_padding;
  (*seen)["NaN output"] += nan_output;
  (*seen)["infinite output"] += infinite_output;
}

// The random cases are only worth what they reach: check, without the
// library, that one run's cases reach every feature and corner.
TEST(MaxPoolRandomCaseGenerator, ReachesEveryFeature) {
  std::map<std::string, int> seen;
  for (const TypeAndRank& p : all_types_and_ranks()) {
    for (int index = 0; index < kCasesPerTypeAndRank; ++index) {
      count_features(batch_case(stream_for(p.type, p.rank), index, {p.type}, {p.rank}), &seen);
    }
  }
  for (const char* feature :
       {"auto_pad NOTSET", "auto_pad SAME_UPPER", "auto_pad SAME_LOWER", "auto_pad VALID", "ceil_mode",
        "storage_order 1 with Indices", "without Indices", "dilations > 1", "strides > 1", "asymmetric pads",
        "window only in padding", "NaN output", "infinite output", "last axis >= 33"}) {
    EXPECT_GE(seen[feature], 3) << "random cases rarely reach: " << feature;
  }
}

}  // namespace
}  // namespace onnxpool_test
