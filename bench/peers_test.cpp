// The C++ peers on case-string nodes the suite never has (ceil_mode,
// count_include_pad, 1D, 3D, dilations, auto_pad, global pools over three
// axes): every row peer_rows gives a node must either match
// tests/reference (the oracle of the library's own tests) or refuse with the
// reason listed here. The benchmark's N-D reference, which the census checks
// the peers against, must match tests/reference too.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "case_pool_node.h"
#include "case_string.h"
#include "peers/peer_rows.h"
#include "reference/reference_pooling.h"
#include "reference_pool.h"
#include "test_data.h"

namespace onnxpool_bench {
namespace {

// The benchmark's tolerances (pool_bench.cpp): a max is exact, sums are not.
constexpr double kRelTolerance = 1e-5;
constexpr double kAbsTolerance = 1e-6;

constexpr const char* kMatches = "";  // the row must run and match the reference

struct NodeExpectation {
  const char* text;
  // impl -> kMatches, or a part of the reason the row must give instead.
  std::map<std::string, const char*> rows;
};

const char kOnednnLp[] = "oneDNN has no pooling for LpPool";
const char kOnednnCeilCip[] = "counts ceil_mode's overhang";

const NodeExpectation kNodes[] = {
    // 12 = 3 + 2 * 4.5: ceil_mode adds a sixth window that overhangs the end.
    {"maxpool:1x20x12x12:k3x3:s2x2:ceil",
     {{"onednn_nchw", kMatches}, {"onednn_nhwc", kMatches}, {"onednn_nChw16c", kMatches}, {"onednn_nChw8c", kMatches},
      {"xnnpack_nhwc", kMatches}}},
    {"averagepool:1x20x9x9:k3x3:s2x2:p1x1x1x1:cip",
     {{"onednn_nchw", kMatches}, {"onednn_nhwc", kMatches}, {"onednn_nChw16c", kMatches}, {"onednn_nChw8c", kMatches},
      {"xnnpack_nhwc", "never counts pads"}}},
    {"maxpool:1x20x5x6x7:k3x3x3:s1x1x1:p1x1x1x1x1x1",
     {{"onednn_nchw", kMatches}, {"onednn_nhwc", kMatches}, {"onednn_nChw16c", kMatches}, {"onednn_nChw8c", kMatches},
      {"xnnpack_nhwc", "XNNPACK has no 3D pooling"}}},
    // 1D, asymmetric pads: XNNPACK runs it as 2D with a unit height.
    {"averagepool:1x20x13:k3:s2:p1x2",
     {{"onednn_nchw", kMatches}, {"onednn_nhwc", kMatches}, {"onednn_nChw16c", kMatches}, {"onednn_nChw8c", kMatches},
      {"xnnpack_nhwc", kMatches}}},
    {"maxpool:1x20x12x12:k3x3:s1x1:d2x2:p2x1x2x1",
     {{"onednn_nchw", kMatches}, {"onednn_nhwc", kMatches}, {"onednn_nChw16c", kMatches}, {"onednn_nChw8c", kMatches},
      {"xnnpack_nhwc", kMatches}}},
    {"globalaveragepool:1x20x3x4x5",
     {{"onednn_nchw", kMatches}, {"onednn_nhwc", kMatches}, {"onednn_nChw16c", kMatches}, {"onednn_nChw8c", kMatches},
      {"onednn_reduction_nchw", kMatches}, {"xnnpack_nhwc", kMatches}, {"xnnpack_nchw", kMatches}}},
    {"globalmaxpool:1x20x3x4x5",
     {{"onednn_nchw", kMatches}, {"onednn_nhwc", kMatches}, {"onednn_nChw16c", kMatches}, {"onednn_nChw8c", kMatches},
      {"onednn_reduction_nchw", kMatches}, {"xnnpack_nhwc", kMatches}}},
    // count_include_pad without pads is what XNNPACK computes, ceil_mode or not.
    {"averagepool:1x20x12x12:k3x3:s2x2:ceil",
     {{"onednn_nchw", kMatches}, {"onednn_nhwc", kMatches}, {"onednn_nChw16c", kMatches}, {"onednn_nChw8c", kMatches},
      {"xnnpack_nhwc", kMatches}}},
    // ceil_mode's last window runs past the end (pads): ONNX does not count
    // the overhang, oneDNN's include_padding does.
    {"averagepool:1x20x12x12:k3x3:s2x2:ceil:cip",
     {{"onednn_nchw", kOnednnCeilCip}, {"onednn_nhwc", kOnednnCeilCip}, {"onednn_nChw16c", kOnednnCeilCip}, {"onednn_nChw8c", kOnednnCeilCip},
      {"xnnpack_nhwc", kMatches}}},
    {"averagepool:1x20x12x12:k3x3:s2x2:p1x1x1x1:ceil:cip",
     {{"onednn_nchw", kOnednnCeilCip}, {"onednn_nhwc", kOnednnCeilCip}, {"onednn_nChw16c", kOnednnCeilCip}, {"onednn_nChw8c", kOnednnCeilCip},
      {"xnnpack_nhwc", "never counts pads"}}},
    // ceil_mode whose windows all end inside the pads: nothing to overhang.
    {"averagepool:1x20x11x11:k3x3:s2x2:p1x1x1x1:ceil:cip",
     {{"onednn_nchw", kMatches}, {"onednn_nhwc", kMatches}, {"onednn_nChw16c", kMatches}, {"onednn_nChw8c", kMatches},
      {"xnnpack_nhwc", "never counts pads"}}},
    {"averagepool:1x20x12x12:k2x2:s2x2:cip",
     {{"onednn_nchw", kMatches}, {"onednn_nhwc", kMatches}, {"onednn_nChw16c", kMatches}, {"onednn_nChw8c", kMatches},
      {"xnnpack_nhwc", kMatches}}},
    {"maxpool:1x20x9x10:k3x3:s2x2:same_upper",
     {{"onednn_nchw", kMatches}, {"onednn_nhwc", kMatches}, {"onednn_nChw16c", kMatches}, {"onednn_nChw8c", kMatches},
      {"xnnpack_nhwc", kMatches}}},
    {"averagepool:1x20x9x9:k3x3:d2x2",
     {{"onednn_nchw", kMatches}, {"onednn_nhwc", kMatches}, {"onednn_nChw16c", kMatches}, {"onednn_nChw8c", kMatches},
      {"xnnpack_nhwc", "has no dilations"}}},
    {"lppool:1x20x8x8:k2x2:s2x2",
     {{"onednn_nchw", kOnednnLp}, {"onednn_nhwc", kOnednnLp}, {"onednn_nChw16c", kOnednnLp}, {"onednn_nChw8c", kOnednnLp},
      {"xnnpack_nhwc", "XNNPACK has no LpPool"}}},
    {"globallppool:1x20x3x4x5",
     {{"onednn_nchw", "oneDNN has no pooling for GlobalLpPool"},
      {"onednn_nhwc", "oneDNN has no pooling for GlobalLpPool"},
      {"onednn_nChw16c", "oneDNN has no pooling for GlobalLpPool"}, {"onednn_nChw8c", "oneDNN has no pooling for GlobalLpPool"},
      {"onednn_reduction_nchw", kMatches}, {"xnnpack_nhwc", "XNNPACK has no GlobalLpPool"}}},
};

onnxpool_test::PoolSpec reference_spec(const CaseSpec& spec) {
  onnxpool_test::PoolSpec reference;
  reference.kernel_shape = spec.kernel_shape;
  reference.strides = spec.strides;
  reference.dilations = spec.dilations;
  reference.pads = spec.pads;
  if (!spec.auto_pad.empty()) reference.auto_pad = spec.auto_pad;
  reference.ceil_mode = spec.ceil_mode;
  reference.count_include_pad = spec.count_include_pad;
  reference.p = spec.p;
  return reference;
}

// tests/reference's answer, rounded to float32 once.
std::vector<float> expected_values(const CaseSpec& spec, const onnxpool_test::HostTensor& x) {
  const onnxpool_test::PoolSpec reference = reference_spec(spec);
  onnxpool_test::HostTensor y;
  switch (spec.op) {
    case onnxpool::PoolOp::kMaxPool: y = onnxpool_test::reference_max_pool(reference, x).Y; break;
    case onnxpool::PoolOp::kAveragePool: y = onnxpool_test::reference_average_pool(reference, x); break;
    case onnxpool::PoolOp::kLpPool: y = onnxpool_test::reference_lp_pool(reference, x); break;
    case onnxpool::PoolOp::kGlobalMaxPool: y = onnxpool_test::reference_global_max_pool(x); break;
    case onnxpool::PoolOp::kGlobalAveragePool: y = onnxpool_test::reference_global_average_pool(x); break;
    case onnxpool::PoolOp::kGlobalLpPool: y = onnxpool_test::reference_global_lp_pool(x, spec.p); break;
  }
  std::vector<float> values(static_cast<size_t>(y.size()));
  for (int64_t i = 0; i < y.size(); ++i) values[i] = static_cast<float>(y.get(i));
  return values;
}

std::string mismatch(const PoolNode& node, const std::vector<float>& got, const std::vector<float>& want) {
  if (got.size() != want.size()) {
    return "output has " + std::to_string(got.size()) + " elements, expected " + std::to_string(want.size());
  }
  return node.op.reduction == Reduction::kMax
             ? first_mismatch("output", got.data(), want.data(), got.size())
             : first_mismatch_within("output", got.data(), want.data(), got.size(), kRelTolerance,
                                     kAbsTolerance);
}

class PeersTest : public ::testing::TestWithParam<NodeExpectation> {
 protected:
  void SetUp() override {
    std::string error;
    ASSERT_TRUE(parse_case_string(GetParam().text, &spec_, &error)) << error;
    ASSERT_TRUE(case_pool_node(spec_, &node_, &error)) << error;
    input_ = onnxpool_test::HostTensor(onnxpool::ElementType::kFloat32, spec_.shape);
    std::mt19937 generator(7);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    for (int64_t i = 0; i < input_.size(); ++i) input_.set(i, uniform(generator));
    expected_ = expected_values(spec_, input_);
  }

  const float* input() const { return static_cast<const float*>(input_.data()); }

  CaseSpec spec_;
  PoolNode node_;
  onnxpool_test::HostTensor input_;
  std::vector<float> expected_;
};

TEST_P(PeersTest, BenchReferenceMatchesTestReference) {
  EXPECT_EQ(node_.output, spec_.output_shape);
  EXPECT_EQ(mismatch(node_, reference_pool_node(node_, input()), expected_), "");
}

TEST_P(PeersTest, EveryPeerRowMatchesOrSaysWhy) {
  const std::map<std::string, const char*>& expected_rows = GetParam().rows;
  std::vector<std::string> seen;
  for (const PeerRow& row : peer_rows(node_)) {
    SCOPED_TRACE(row.impl);
    seen.push_back(row.impl);
    const auto expectation = expected_rows.find(row.impl);
    ASSERT_NE(expectation, expected_rows.end()) << "peer_rows gives a row this test does not expect";
    for (int threads : {1, 2}) {
      const auto runner = row.make(node_, threads, input());
      std::string outcome = runner->error();
      if (outcome.empty()) outcome = runner->run() ? mismatch(node_, runner->output_nchw(), expected_) : runner->error();
      if (*expectation->second == '\0') {
        EXPECT_EQ(outcome, "") << "threads " << threads << ", label " << runner->label();
      } else {
        EXPECT_NE(outcome.find(expectation->second), std::string::npos)
            << "threads " << threads << ": expected a reason with '" << expectation->second << "', got '"
            << outcome << "'";
      }
    }
  }
  EXPECT_EQ(seen.size(), expected_rows.size()) << "an expected row is missing from peer_rows";
}

std::string test_name(const ::testing::TestParamInfo<NodeExpectation>& info) {
  std::string name;
  for (const char* c = info.param.text; *c; ++c) name += std::isalnum(static_cast<unsigned char>(*c)) ? *c : '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(CaseStrings, PeersTest, ::testing::ValuesIn(kNodes), test_name);

}  // namespace
}  // namespace onnxpool_bench
