// Reading TensorProto and ModelProto bytes: round trips through the runner's
// own conversions, and malformed input, which must give an error naming the
// field that breaks and never a crash.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "float_bits.h"
#include "host_tensor.h"
#include "onnx_messages.h"

namespace onnxpool_runner {
namespace {

std::string bytes_of(std::initializer_list<int> values) {
  std::string bytes;
  for (int v : values) bytes.push_back(static_cast<char>(v));
  return bytes;
}

std::vector<unsigned char> float_bytes(std::initializer_list<float> values) {
  std::vector<unsigned char> bytes(values.size() * sizeof(float));
  std::memcpy(bytes.data(), values.begin(), bytes.size());
  return bytes;
}

std::string parse_tensor_error(const std::string& bytes) {
  onnx::TensorProto tensor;
  std::string error;
  EXPECT_FALSE(parse_tensor(bytes, &tensor, &error));
  return error;
}

std::string parse_model_error(const std::string& bytes) {
  onnx::ModelProto model;
  std::string error;
  EXPECT_FALSE(parse_model(bytes, &model, &error));
  return error;
}

// A MaxPool model as a converter would write it, with an initializer and
// every attribute kind the runner reads.
onnx::ModelProto maxpool_model() {
  onnx::ModelProto model;
  model.set_ir_version(10);
  model.set_producer_name("onnx_messages_test");
  onnx::OperatorSetIdProto* opset = model.add_opset_import();
  opset->set_domain("");
  opset->set_version(22);
  onnx::GraphProto* graph = model.mutable_graph();
  graph->set_name("g");
  onnx::NodeProto* node = graph->add_node();
  node->set_op_type("MaxPool");
  node->add_input("x");
  node->add_output("y");
  node->add_output("indices");
  onnx::AttributeProto* kernel_shape = node->add_attribute();
  kernel_shape->set_name("kernel_shape");
  kernel_shape->set_type(onnx::AttributeProto::INTS);
  kernel_shape->add_ints(3);
  kernel_shape->add_ints(3);
  onnx::AttributeProto* auto_pad = node->add_attribute();
  auto_pad->set_name("auto_pad");
  auto_pad->set_type(onnx::AttributeProto::STRING);
  auto_pad->set_s("SAME_UPPER");
  onnx::AttributeProto* storage_order = node->add_attribute();
  storage_order->set_name("storage_order");
  storage_order->set_type(onnx::AttributeProto::INT);
  storage_order->set_i(-1);  // a 10-byte varint on the wire
  graph->add_input()->set_name("x");
  graph->add_input()->set_name("w");
  graph->add_output()->set_name("y");
  onnx::TensorProto* initializer = graph->add_initializer();
  initializer->set_name("w");
  initializer->set_data_type(onnx::TensorProto::FLOAT);
  return model;
}

TEST(TensorProto, RoundTripsThroughTheRunnersConversions) {
  HostTensor original;
  original.data_type = onnx::TensorProto::FLOAT;
  original.shape = {1, 2, 3};
  original.bytes = float_bytes({1, -2, 3.5f, 0, 1e-30f, -0.0f});

  onnx::TensorProto parsed;
  std::string error;
  ASSERT_TRUE(parse_tensor(tensor_to_proto(original, "x").SerializeAsString(), &parsed, &error)) << error;
  EXPECT_EQ(parsed.name(), "x");
  HostTensor back;
  ASSERT_TRUE(tensor_from_proto(parsed, &back, &error)) << error;
  EXPECT_EQ(back.data_type, original.data_type);
  EXPECT_EQ(back.shape, original.shape);
  EXPECT_EQ(back.bytes, original.bytes);
}

TEST(TensorProto, RoundTripsAnEmptyTensor) {
  HostTensor empty;
  empty.data_type = onnx::TensorProto::INT64;
  empty.shape = {2, 0, 3};
  onnx::TensorProto parsed;
  std::string error;
  ASSERT_TRUE(parse_tensor(tensor_to_proto(empty, "e").SerializeAsString(), &parsed, &error)) << error;
  HostTensor back;
  ASSERT_TRUE(tensor_from_proto(parsed, &back, &error)) << error;
  EXPECT_EQ(back.shape, empty.shape);
  EXPECT_TRUE(back.bytes.empty());
}

TEST(TensorProto, AcceptsPackedAndUnpackedRepeatedFieldsMixed) {
  // dims: 2 unpacked, then [3, 4] packed; int32_data: -1 as a sign-extended
  // 10-byte varint, then 5 packed.
  const std::string bytes =
      bytes_of({0x08, 0x02, 0x0a, 0x02, 0x03, 0x04, 0x10, onnx::TensorProto::INT32, 0x28, 0xff, 0xff,
                0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0x2a, 0x01, 0x05});
  onnx::TensorProto tensor;
  std::string error;
  ASSERT_TRUE(parse_tensor(bytes, &tensor, &error)) << error;
  EXPECT_EQ(std::vector<int64_t>(tensor.dims().begin(), tensor.dims().end()), (std::vector<int64_t>{2, 3, 4}));
  EXPECT_EQ(std::vector<int32_t>(tensor.int32_data().begin(), tensor.int32_data().end()),
            (std::vector<int32_t>{-1, 5}));
}

TEST(TensorProto, ReadsTypedFieldsIntoElementBytes) {
  onnx::TensorProto proto;
  proto.add_dims(3);
  proto.set_data_type(onnx::TensorProto::FLOAT16);
  for (int32_t bits : {0x3c00, 0xc000, 0x7c00}) proto.add_int32_data(bits);  // 1, -2, inf
  HostTensor tensor;
  std::string error;
  ASSERT_TRUE(tensor_from_proto(proto, &tensor, &error)) << error;
  ASSERT_EQ(tensor.bytes.size(), 6u);
  uint16_t halves[3];
  std::memcpy(halves, tensor.bytes.data(), sizeof halves);
  EXPECT_EQ(float16_to_float(halves[0]), 1.0f);
  EXPECT_EQ(float16_to_float(halves[1]), -2.0f);
  EXPECT_TRUE(std::isinf(float16_to_float(halves[2])));

  proto.Clear();
  proto.add_dims(2);
  proto.set_data_type(onnx::TensorProto::INT8);
  proto.add_int32_data(-3);
  proto.add_int32_data(7);
  ASSERT_TRUE(tensor_from_proto(proto, &tensor, &error)) << error;
  EXPECT_EQ(tensor.bytes, (std::vector<unsigned char>{0xfd, 0x07}));

  proto.Clear();
  proto.add_dims(2);
  proto.set_data_type(onnx::TensorProto::DOUBLE);
  proto.add_double_data(0.5);
  proto.add_double_data(-1e300);
  ASSERT_TRUE(tensor_from_proto(proto, &tensor, &error)) << error;
  double doubles[2];
  ASSERT_EQ(tensor.bytes.size(), sizeof doubles);
  std::memcpy(doubles, tensor.bytes.data(), sizeof doubles);
  EXPECT_EQ(doubles[0], 0.5);
  EXPECT_EQ(doubles[1], -1e300);
}

TEST(TensorProto, RejectsDataThatDoesNotMatchTheDims) {
  onnx::TensorProto proto;
  proto.set_name("x");
  proto.add_dims(2);
  proto.add_dims(2);
  proto.set_data_type(onnx::TensorProto::FLOAT);
  const std::vector<unsigned char> three = float_bytes({1, 2, 3});
  proto.set_raw_data(std::string(three.begin(), three.end()));
  HostTensor tensor;
  std::string error;
  EXPECT_FALSE(tensor_from_proto(proto, &tensor, &error));
  EXPECT_NE(error.find("needs 16 bytes of raw_data, found 12"), std::string::npos) << error;

  proto.clear_raw_data();
  for (float v : {1.0f, 2.0f, 3.0f}) proto.add_float_data(v);
  EXPECT_FALSE(tensor_from_proto(proto, &tensor, &error));
  EXPECT_NE(error.find("needs 4 values, found 3 in float_data"), std::string::npos) << error;

  proto.clear_dims();
  proto.add_dims(-1);
  EXPECT_FALSE(tensor_from_proto(proto, &tensor, &error));
  EXPECT_NE(error.find("negative"), std::string::npos) << error;

  proto.clear_dims();
  proto.add_dims(int64_t{1} << 40);
  proto.add_dims(int64_t{1} << 40);
  EXPECT_FALSE(tensor_from_proto(proto, &tensor, &error));
  EXPECT_NE(error.find("more elements"), std::string::npos) << error;
}

TEST(TensorProto, RejectsUnsupportedStorage) {
  onnx::TensorProto proto;
  proto.set_data_type(onnx::TensorProto::STRING);
  HostTensor tensor;
  std::string error;
  EXPECT_FALSE(tensor_from_proto(proto, &tensor, &error));
  EXPECT_NE(error.find("string"), std::string::npos) << error;

  proto.set_data_type(onnx::TensorProto::FLOAT);
  proto.set_data_location(onnx::TensorProto::EXTERNAL);
  EXPECT_FALSE(tensor_from_proto(proto, &tensor, &error));
  EXPECT_NE(error.find("external"), std::string::npos) << error;

  proto.set_data_location(onnx::TensorProto::DEFAULT);
  proto.mutable_segment()->set_begin(0);
  EXPECT_FALSE(tensor_from_proto(proto, &tensor, &error));
  EXPECT_NE(error.find("segment"), std::string::npos) << error;
}

TEST(MalformedInput, BrokenWireDataNamesTheMessage) {
  // A truncated varint, a length past the end, an invalid wire type.
  for (const std::string& bytes :
       {bytes_of({0x08, 0x80}), bytes_of({0x4a, 0x05, 'a'}), bytes_of({0x0f}),
        bytes_of({0x4a, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 'a'})}) {
    const std::string error = parse_tensor_error(bytes);
    EXPECT_NE(error.find("malformed protobuf data (onnx.TensorProto)"), std::string::npos) << error;
  }
}

TEST(MalformedInput, APackedRunThatIsNotWholeValuesNamesItsField) {
  // float_data (field 4) packed with 3 bytes: not a whole float.
  const std::string error = parse_tensor_error(bytes_of({0x22, 0x03, 0, 0, 0}));
  EXPECT_NE(error.find("float_data"), std::string::npos) << error;
}

TEST(MalformedInput, ABrokenNestedMessageNamesItsPath) {
  onnx::ModelProto model = maxpool_model();
  // The second attribute's bytes replaced by a length that runs past its end.
  onnx::AttributeProto* attribute = model.mutable_graph()->mutable_node(0)->mutable_attribute(1);
  attribute->Clear();
  attribute->set_name("auto_pad");
  std::string bytes = model.SerializeAsString();
  const std::string marker = attribute->SerializeAsString();
  const size_t at = bytes.find(marker);
  ASSERT_NE(at, std::string::npos);
  // "auto_pad" is field 1 (tag 0x0a), 8 bytes long: claim 50 instead.
  ASSERT_EQ(bytes[at + 1], 8);
  bytes[at + 1] = 50;
  const std::string error = parse_model_error(bytes);
  EXPECT_NE(error.find("graph.node[0].attribute[1]: malformed protobuf data (onnx.AttributeProto)"),
            std::string::npos)
      << error;
}

// A length-delimited field: its tag byte, the payload's length as a varint, the payload.
std::string length_delimited(int tag, const std::string& payload) {
  std::string field(1, static_cast<char>(tag));
  uint64_t n = payload.size();
  do {
    field.push_back(static_cast<char>((n & 0x7f) | (n > 0x7f ? 0x80 : 0)));
    n >>= 7;
  } while (n != 0);
  return field + payload;
}

TEST(MalformedInput, DeepNestingIsReportedNotSearchedToTheBottom) {
  // 1000 GraphProtos nested through graph.node.attribute.g, broken at the
  // bottom: deeper than protobuf's limit and the search's own.
  std::string graph = bytes_of({0x0a, 0x05});  // a node whose length runs past its end
  for (int level = 0; level < 1000; ++level) {
    graph = length_delimited(0x0a, length_delimited(0x2a, length_delimited(0x32, graph)));
  }
  const std::string error = parse_model_error(length_delimited(0x3a, graph));
  EXPECT_NE(error.find("nested too deeply"), std::string::npos) << error.substr(0, 200);
  EXPECT_EQ(error.rfind("graph.node[0].attribute[0].g.node[0]", 0), 0u) << error.substr(0, 200);
}

TEST(ModelProto, ReadsWhatTheLibraryWrote) {
  onnx::ModelProto model;
  std::string error;
  ASSERT_TRUE(parse_model(maxpool_model().SerializeAsString(), &model, &error)) << error;
  ASSERT_EQ(model.graph().node_size(), 1);
  EXPECT_EQ(model.graph().node(0).attribute(2).i(), -1);
  EXPECT_EQ(model.graph().node(0).attribute(1).s(), "SAME_UPPER");
}

TEST(MalformedInput, EveryTruncationAndCorruptionFailsCleanly) {
  const std::string model = maxpool_model().SerializeAsString();
  size_t failures = 0;
  for (size_t length = 0; length < model.size(); ++length) {
    onnx::ModelProto parsed;
    std::string error;
    if (!parse_model(model.substr(0, length), &parsed, &error)) {
      ++failures;
      EXPECT_FALSE(error.empty()) << "truncated at " << length;
    }
  }
  EXPECT_GT(failures, 0u);  // a cut inside the graph must fail
  std::mt19937 random(1234);
  for (int trial = 0; trial < 2000; ++trial) {
    std::string corrupt = model;
    for (int flips = 0; flips < 3; ++flips) {
      corrupt[random() % corrupt.size()] = static_cast<char>(random() & 0xff);
    }
    onnx::ModelProto parsed;
    std::string error;
    if (!parse_model(corrupt, &parsed, &error)) {
      EXPECT_FALSE(error.empty());
    }
  }
}

TEST(Names, DataAndAttributeTypes) {
  EXPECT_EQ(data_type_name(onnx::TensorProto::FLOAT), "float32");
  EXPECT_EQ(data_type_name(onnx::TensorProto::BFLOAT16), "bfloat16");
  EXPECT_EQ(data_type_name(999), "data_type 999");
  EXPECT_EQ(attribute_type_name(onnx::AttributeProto::INTS), "INTS");
  EXPECT_EQ(attribute_type_name(77), "attribute type 77");
}

TEST(FloatBits, DecodesFloat16AndBFloat16) {
  EXPECT_EQ(float16_to_float(0x3c00), 1.0f);
  EXPECT_EQ(float16_to_float(0xc000), -2.0f);
  EXPECT_EQ(float16_to_float(0x7bff), 65504.0f);
  EXPECT_EQ(float16_to_float(0x0001), std::ldexp(1.0f, -24));  // smallest subnormal
  EXPECT_EQ(float16_to_float(0x03ff), std::ldexp(1023.0f, -24));
  EXPECT_TRUE(std::signbit(float16_to_float(0x8000)));
  EXPECT_EQ(float16_to_float(0xfc00), -INFINITY);
  EXPECT_TRUE(std::isnan(float16_to_float(0x7e00)));
  EXPECT_EQ(bfloat16_to_float(0x3f80), 1.0f);
  EXPECT_EQ(bfloat16_to_float(0xc0a0), -5.0f);
  EXPECT_TRUE(std::isnan(bfloat16_to_float(0x7fc0)));
  EXPECT_EQ(bfloat16_to_float(0xff80), -INFINITY);
}

}  // namespace
}  // namespace onnxpool_runner
