// Case strings: every field of the grammar reaches the node's attributes, and
// malformed strings or invalid nodes are refused with a message that helps.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "case_string.h"

namespace onnxpool_bench {
namespace {

CaseSpec parsed(const std::string& text) {
  CaseSpec spec;
  std::string error;
  EXPECT_TRUE(parse_case_string(text, &spec, &error)) << error;
  return spec;
}

std::string refusal(const std::string& text) {
  CaseSpec spec;
  std::string error;
  EXPECT_FALSE(parse_case_string(text, &spec, &error)) << text;
  return error;
}

using Ints = std::vector<int64_t>;

TEST(CaseString, TheResNetStem) {
  const CaseSpec spec = parsed("maxpool:1x64x112x112:k3x3:s2x2:p1x1x1x1");
  EXPECT_EQ(spec.op, onnxpool::PoolOp::kMaxPool);
  EXPECT_STREQ(spec.op_name, "MaxPool");
  EXPECT_EQ(spec.shape, (Ints{1, 64, 112, 112}));
  EXPECT_EQ(spec.type, onnxpool::ElementType::kFloat32);
  EXPECT_EQ(spec.attributes.kernel_shape, (Ints{3, 3}));
  EXPECT_EQ(spec.attributes.strides, (Ints{2, 2}));
  EXPECT_EQ(spec.attributes.pads, (Ints{1, 1, 1, 1}));
  EXPECT_EQ(spec.output_shape, (Ints{1, 64, 56, 56}));
}

TEST(CaseString, EveryFieldReachesTheNode) {
  const CaseSpec average = parsed("AveragePool:2x3x10x11:k3x2:s2x1:d1x2:same_lower:ceil:cip:f16");
  EXPECT_EQ(average.type, onnxpool::ElementType::kFloat16);
  EXPECT_EQ(average.attributes.dilations, (Ints{1, 2}));
  EXPECT_EQ(average.attributes.auto_pad, onnxpool::AutoPad::kSameLower);
  EXPECT_TRUE(average.attributes.ceil_mode);
  EXPECT_TRUE(average.attributes.count_include_pad);
  EXPECT_EQ(average.output_shape, (Ints{2, 3, 5, 11}));

  const CaseSpec lp = parsed("lppool:1x4x9:k3:lp3:valid:f64");
  EXPECT_EQ(lp.attributes.p, 3);
  EXPECT_EQ(lp.attributes.auto_pad, onnxpool::AutoPad::kValid);
  EXPECT_EQ(lp.output_shape, (Ints{1, 4, 7}));

  EXPECT_EQ(parsed("maxpool:1x1x8x8x8:k2x2x2:s2x2x2:i8").type, onnxpool::ElementType::kInt8);
  EXPECT_EQ(parsed("maxpool:1x1x8:k2:u8").type, onnxpool::ElementType::kUInt8);
  EXPECT_EQ(parsed("globalmaxpool:1x8x7x7:bf16").type, onnxpool::ElementType::kBFloat16);
  EXPECT_EQ(parsed("globallppool:1x2x3x4x5x6").output_shape, (Ints{1, 2, 1, 1, 1, 1}));
  EXPECT_EQ(parsed("globalaveragepool:1x2048x7x7:f16").output_shape, (Ints{1, 2048, 1, 1}));
}

TEST(CaseString, MalformedStringsGetTheGrammar) {
  for (const char* text : {"maxpool", "maxpool:", "conv:1x1x4x4:k3x3", "maxpool:1x4:k3",
                           "maxpool:1x-4x4x4:k3x3", "maxpool:1x4x4x4:k3x3:q1", "maxpool:1x4x4x4:k3x:s1",
                           "maxpool:1x4x4x4:k3x3:k2x2", "maxpool:1x4x4x4:k3x3:f16:f32",
                           "maxpool:1x4x4x4:kx3", "maxpool:1x4x4x4:k3x3:lp"}) {
    const std::string error = refusal(text);
    EXPECT_NE(error.find("case strings: OP:SHAPE[:FIELD]"), std::string::npos) << text << ": " << error;
    EXPECT_NE(error.find(text), std::string::npos) << error;
  }
}

TEST(CaseString, InvalidNodesAreRefusedWithTheOnnxName) {
  EXPECT_NE(refusal("maxpool:1x4x8x8:k3x3:s0x1").find("strides"), std::string::npos);
  EXPECT_NE(refusal("maxpool:1x4x8x8").find("kernel_shape"), std::string::npos);
  EXPECT_NE(refusal("maxpool:1x4x8x8:k3x3:p1x1").find("pads"), std::string::npos);
  EXPECT_NE(refusal("averagepool:1x4x8x8:k3x3:p1x1x1x1:same_upper").find("auto_pad"), std::string::npos);
  EXPECT_NE(refusal("lppool:1x4x8x8:k3x3:lp0").find("attribute 'p' must be"), std::string::npos);
  EXPECT_NE(refusal("globalmaxpool:1x4x8x8:k3x3").find("kernel_shape"), std::string::npos);
}

// A cases file written under the test's temporary directory.
std::string cases_file(const std::string& name, const std::string& text) {
  const std::string path = testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

TEST(CasesFile, FirstWordOfEachLineInOrderCommentsAndBlankLinesSkipped) {
  const std::string path = cases_file("census.txt",
      "# a header line\n"
      "\n"
      "maxpool:1x64x112x112:k3x3:s2x2:p1x1x1x1  # resnet18:1,resnet50:1\n"
      "   \t\n"
      "  averagepool:1x192x35x35:k3x3:s1x1:p1x1x1x1:cip\tignored words # inception_v3:1\r\n"
      "globalaveragepool:1x2048x7x7#no space before the comment\n"
      "    # an indented comment\n"
      "lppool:1x4x9:k3:lp3");  // no newline at the end
  std::vector<std::string> cases = {"maxpool:1x1x8:k2"};  // a --case before the file
  std::string error;
  ASSERT_TRUE(read_cases_file(path, &cases, &error)) << error;
  EXPECT_EQ(cases, (std::vector<std::string>{"maxpool:1x1x8:k2", "maxpool:1x64x112x112:k3x3:s2x2:p1x1x1x1",
                                             "averagepool:1x192x35x35:k3x3:s1x1:p1x1x1x1:cip",
                                             "globalaveragepool:1x2048x7x7", "lppool:1x4x9:k3:lp3"}));
}

TEST(CasesFile, ABadStringIsRefusedWithTheFileAndLine) {
  const std::string path = cases_file("bad.txt",
      "# header\n"
      "maxpool:1x4x8x8:k2x2\n"
      "maxpool:1x4x8x8:k3x3:q1  # malformed\n");
  std::vector<std::string> cases = {"maxpool:1x1x8:k2"};
  std::string error;
  EXPECT_FALSE(read_cases_file(path, &cases, &error));
  EXPECT_NE(error.find(path + ":3: "), std::string::npos) << error;
  EXPECT_NE(error.find("case strings: OP:SHAPE[:FIELD]"), std::string::npos) << error;
  EXPECT_EQ(cases, (std::vector<std::string>{"maxpool:1x1x8:k2"}));  // nothing of the file added

  // An invalid node: onnxpool's message, naming the attribute, after the file and line.
  const std::string invalid = cases_file("invalid.txt", "\nmaxpool:1x4x8x8:k3x3:s0x1\n");
  EXPECT_FALSE(read_cases_file(invalid, &cases, &error));
  EXPECT_NE(error.find(invalid + ":2: "), std::string::npos) << error;
  EXPECT_NE(error.find("strides"), std::string::npos) << error;
}

TEST(CasesFile, MissingUnreadableOrEmptyFilesAreRefusedByName) {
  std::vector<std::string> cases;
  std::string error;
  const std::string missing = testing::TempDir() + "/no-such-cases-file.txt";
  std::remove(missing.c_str());
  EXPECT_FALSE(read_cases_file(missing, &cases, &error));
  EXPECT_NE(error.find(missing), std::string::npos) << error;

  EXPECT_FALSE(read_cases_file(testing::TempDir(), &cases, &error));  // a directory
  EXPECT_NE(error.find(testing::TempDir()), std::string::npos) << error;

  const std::string empty = cases_file("empty.txt", "# only a header\n\n");
  EXPECT_FALSE(read_cases_file(empty, &cases, &error));
  EXPECT_NE(error.find(empty), std::string::npos) << error;
  EXPECT_TRUE(cases.empty());
}

}  // namespace
}  // namespace onnxpool_bench
