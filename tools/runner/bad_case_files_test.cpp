// Case folders whose files are broken or ask for what the runner does not
// know: each must be one FAIL whose reason names the file and the field, never
// a crash. A well-formed case beside them must pass, so the harness itself is
// checked.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "case_runner.h"
#include "host_tensor.h"
#include "onnx_messages.h"

namespace onnxpool_runner {
namespace {

namespace fs = std::filesystem;

// A 1x1x2x2 GlobalMaxPool of {1, 4, 2, 3}: Y = 4.
onnx::ModelProto global_max_pool_model() {
  onnx::ModelProto model;
  model.set_ir_version(10);
  onnx::OperatorSetIdProto* opset = model.add_opset_import();
  opset->set_version(22);
  onnx::GraphProto* graph = model.mutable_graph();
  onnx::NodeProto* node = graph->add_node();
  node->set_op_type("GlobalMaxPool");
  node->add_input("x");
  node->add_output("y");
  graph->add_input()->set_name("x");
  graph->add_output()->set_name("y");
  return model;
}

std::string float_tensor_bytes(const std::vector<int64_t>& shape, std::vector<float> values) {
  HostTensor tensor;
  tensor.data_type = onnx::TensorProto::FLOAT;
  tensor.shape = shape;
  tensor.bytes.resize(values.size() * sizeof(float));
  std::memcpy(tensor.bytes.data(), values.data(), tensor.bytes.size());
  return tensor_to_proto(tensor, "t").SerializeAsString();
}

void write(const fs::path& path, const std::string& bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << bytes;
}

class BadCaseFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("onnxpool_bad_case_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Writes a case from its three files' bytes and runs it.
  CaseResult run(const std::string& model, const std::string& input, const std::string& output) {
    write(dir_ / "model.onnx", model);
    write(dir_ / "test_data_set_0" / "input_0.pb", input);
    write(dir_ / "test_data_set_0" / "output_0.pb", output);
    return run_case(dir_, RunOptions());
  }
  CaseResult run_model(const onnx::ModelProto& model) {
    return run(model.SerializeAsString(), good_input_, good_output_);
  }

  fs::path dir_;
  const std::string good_input_ = float_tensor_bytes({1, 1, 2, 2}, {1, 4, 2, 3});
  const std::string good_output_ = float_tensor_bytes({1, 1, 1, 1}, {4});
};

TEST_F(BadCaseFiles, AWellFormedCasePasses) {
  const CaseResult result = run_model(global_max_pool_model());
  EXPECT_TRUE(result.passed) << result.reason;
  const CaseResult wrong = run(global_max_pool_model().SerializeAsString(), good_input_,
                               float_tensor_bytes({1, 1, 1, 1}, {3}));
  EXPECT_FALSE(wrong.passed);
}

TEST_F(BadCaseFiles, AModelThatDoesNotParse) {
  const CaseResult result = run("\x0a\x7f not a model", good_input_, good_output_);
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.reason.rfind("model.onnx: ", 0), 0u) << result.reason;
  EXPECT_NE(result.reason.find("onnx.ModelProto"), std::string::npos) << result.reason;
}

TEST_F(BadCaseFiles, AnOperatorTheRunnerDoesNotKnow) {
  onnx::ModelProto model = global_max_pool_model();
  model.mutable_graph()->mutable_node(0)->set_op_type("Conv");
  const CaseResult result = run_model(model);
  EXPECT_FALSE(result.passed);
  EXPECT_NE(result.reason.find("model.onnx: graph.node[0].op_type: unsupported operator 'Conv'"),
            std::string::npos)
      << result.reason;
}

TEST_F(BadCaseFiles, AnAttributeOfAKindNoPoolTakes) {
  onnx::ModelProto model = global_max_pool_model();
  onnx::AttributeProto* attribute = model.mutable_graph()->mutable_node(0)->add_attribute();
  attribute->set_name("body");
  attribute->set_type(onnx::AttributeProto::GRAPH);
  const CaseResult result = run_model(model);
  EXPECT_FALSE(result.passed);
  EXPECT_NE(result.reason.find("graph.node[0].attribute[0] 'body' has type GRAPH"), std::string::npos)
      << result.reason;
}

TEST_F(BadCaseFiles, AnAttributeTheOperatorDoesNotHave) {
  onnx::ModelProto model = global_max_pool_model();
  onnx::AttributeProto* attribute = model.mutable_graph()->mutable_node(0)->add_attribute();
  attribute->set_name("kernel_shape");
  attribute->set_type(onnx::AttributeProto::INTS);
  attribute->add_ints(2);
  attribute->add_ints(2);
  const CaseResult result = run_model(model);
  EXPECT_FALSE(result.passed);
  EXPECT_NE(result.reason.find("model.onnx: graph.node[0].attribute"), std::string::npos) << result.reason;
  EXPECT_NE(result.reason.find("kernel_shape"), std::string::npos) << result.reason;
}

TEST_F(BadCaseFiles, ATruncatedInputTensor) {
  const CaseResult result =
      run(global_max_pool_model().SerializeAsString(), good_input_.substr(0, good_input_.size() - 5), good_output_);
  EXPECT_FALSE(result.passed);
  EXPECT_NE(result.reason.find("input_0.pb: "), std::string::npos) << result.reason;
  EXPECT_NE(result.reason.find("onnx.TensorProto"), std::string::npos) << result.reason;
}

TEST_F(BadCaseFiles, AnExpectedOutputOfAnotherShape) {
  const CaseResult result =
      run(global_max_pool_model().SerializeAsString(), good_input_, float_tensor_bytes({1, 1, 2}, {4, 4}));
  EXPECT_FALSE(result.passed);
  EXPECT_NE(result.reason.find("output 0 (y)"), std::string::npos) << result.reason;
}

TEST_F(BadCaseFiles, AnInputOfAnElementTypeOnnxpoolHasNot) {
  onnx::TensorProto input;
  input.set_data_type(onnx::TensorProto::INT32);
  for (int64_t dim : {1, 1, 2, 2}) input.add_dims(dim);
  for (int32_t v : {1, 4, 2, 3}) input.add_int32_data(v);
  const CaseResult result = run(global_max_pool_model().SerializeAsString(), input.SerializeAsString(), good_output_);
  EXPECT_FALSE(result.passed);
  EXPECT_NE(result.reason.find("input X has element type int32"), std::string::npos) << result.reason;
}

}  // namespace
}  // namespace onnxpool_runner
