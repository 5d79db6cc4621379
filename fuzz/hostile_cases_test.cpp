// Every hostile case (hostile_cases.cpp) ends where it must, and passes
// api_fuzzer's whole check; its seed in fuzz/corpus/api is its current encoding.
#include <fstream>
#include <iterator>
#include <string>

#include <gtest/gtest.h>

#include "api_case.h"
#include "api_check.h"
#include "hostile_cases.h"

namespace onnxpool_fuzz {
namespace {

uint64_t count_for(Outcome outcome, const CheckCounts& counts) {
  switch (outcome) {
    case Outcome::kRefusedByParse: return counts.refused_by_parse;
    case Outcome::kRefusedByShape: return counts.refused_by_shape;
    case Outcome::kUnsupportedLimit: return counts.unsupported_limit;
    case Outcome::kValidButTooLarge: return counts.too_large_to_run;
    case Outcome::kRefusedCall: return counts.refused_call;
    case Outcome::kRunsAndMatches: return counts.ran_and_matched;
    case Outcome::kRunsValuesUnchecked: return counts.ran_unchecked_values;
    case Outcome::kRunsCostChecked: return counts.ran_cost_only;
  }
  return 0;
}

class HostileCaseTest : public testing::TestWithParam<HostileCase> {};

TEST_P(HostileCaseTest, EndsWhereItMustAndPassesTheFuzzCheck) {
  const HostileCase& hostile = GetParam();
  CheckCounts counts;
  EXPECT_EQ(check_api_case(hostile.call, &counts), "");
  EXPECT_EQ(counts.cases, 1u);
  EXPECT_EQ(count_for(hostile.outcome, counts), 1u)
      << hostile.call.describe() << "\nshould be " << outcome_name(hostile.outcome) << "; " << counts.summary();
}

TEST_P(HostileCaseTest, SeedIsItsCurrentEncoding) {
  const HostileCase& hostile = GetParam();
  const std::vector<uint8_t> encoded = encode_api_case(hostile.call);
  EXPECT_EQ(decode_api_case(encoded.data(), encoded.size()).describe(), hostile.call.describe());
  const std::string path = std::string(ONNXPOOL_FUZZ_DIR) + "/corpus/api/" + hostile.name;
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << path << " is missing: run onnxpool_fuzz_seeds api fuzz/corpus/api (fuzz/README.md)";
  const std::vector<uint8_t> seed((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(seed, encoded) << path << " is stale: rerun onnxpool_fuzz_seeds api fuzz/corpus/api";
}

INSTANTIATE_TEST_SUITE_P(All, HostileCaseTest, testing::ValuesIn(hostile_cases()),
                         [](const testing::TestParamInfo<HostileCase>& info) { return info.param.name; });

}  // namespace
}  // namespace onnxpool_fuzz
