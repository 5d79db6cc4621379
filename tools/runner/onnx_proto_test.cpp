// The protobuf reader and writer: round trips, both repeated-field encodings,
// and malformed input, which must give an error and never a crash.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "float_bits.h"
#include "host_tensor.h"
#include "onnx_proto.h"
#include "protobuf_wire.h"

namespace onnxpool_runner {
namespace {

using onnx::AttributeType;

std::string bytes_of(std::initializer_list<int> values) {
  std::string bytes;
  for (int v : values) bytes.push_back(static_cast<char>(v));
  return bytes;
}

std::string float_bytes(std::initializer_list<float> values) {
  std::string bytes;
  for (float v : values) bytes.append(reinterpret_cast<const char*>(&v), sizeof v);
  return bytes;
}

std::string parse_tensor_error(const std::string& bytes) {
  onnx::TensorProto tensor;
  std::string error;
  EXPECT_FALSE(onnx::parse_tensor(bytes, &tensor, &error));
  return error;
}

// A small MaxPool model, built with our own writer.
std::string maxpool_model_bytes() {
  wire::Writer kernel_shape;  // INTS, written unpacked
  kernel_shape.bytes(1, "kernel_shape");
  kernel_shape.varint(8, 3);
  kernel_shape.varint(8, 3);
  kernel_shape.varint(20, static_cast<uint64_t>(AttributeType::kInts));

  wire::Writer auto_pad;  // STRING
  auto_pad.bytes(1, "auto_pad");
  auto_pad.bytes(4, "SAME_UPPER");
  auto_pad.varint(20, static_cast<uint64_t>(AttributeType::kString));

  wire::Writer alpha;  // FLOAT
  alpha.bytes(1, "alpha");
  const float value = 0.25f;
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  alpha.fixed32(2, bits);
  alpha.varint(20, static_cast<uint64_t>(AttributeType::kFloat));

  wire::Writer negative;  // INT, negative: a 10-byte varint
  negative.bytes(1, "storage_order");
  negative.varint(3, static_cast<uint64_t>(int64_t{-1}));
  negative.varint(20, static_cast<uint64_t>(AttributeType::kInt));

  wire::Writer node;
  node.bytes(1, "x");
  node.bytes(2, "y");
  node.bytes(2, "indices");
  node.bytes(4, "MaxPool");
  node.bytes(5, kernel_shape.data());
  node.bytes(5, auto_pad.data());
  node.bytes(5, alpha.data());
  node.bytes(5, negative.data());

  wire::Writer value_info_x, value_info_y, value_info_w, initializer;
  value_info_x.bytes(1, "x");
  value_info_y.bytes(1, "y");
  value_info_w.bytes(1, "w");
  initializer.varint(2, onnx::kFloat);
  initializer.bytes(8, "w");

  wire::Writer graph;
  graph.bytes(1, node.data());
  graph.bytes(2, "g");
  graph.bytes(5, initializer.data());
  graph.bytes(11, value_info_x.data());
  graph.bytes(11, value_info_w.data());
  graph.bytes(12, value_info_y.data());

  wire::Writer opset;
  opset.bytes(1, "");
  opset.varint(2, 22);

  wire::Writer model;
  model.varint(1, 10);
  model.bytes(2, "a producer name, skipped");
  model.bytes(7, graph.data());
  model.bytes(8, opset.data());
  return model.data();
}

TEST(WireWriter, EncodesVarintsAsSevenBitGroups) {
  wire::Writer writer;
  writer.varint(1, 300);
  EXPECT_EQ(writer.data(), bytes_of({0x08, 0xac, 0x02}));
}

TEST(TensorProto, RoundTripsThroughWriterAndReader) {
  onnx::TensorProto original;
  original.dims = {1, 2, 3};
  original.data_type = onnx::kFloat;
  original.name = "x";
  original.has_raw_data = true;
  original.raw_data = float_bytes({1, -2, 3.5f, 0, 1e-30f, -0.0f});

  onnx::TensorProto parsed;
  std::string error;
  ASSERT_TRUE(onnx::parse_tensor(onnx::serialize_tensor(original), &parsed, &error)) << error;
  EXPECT_EQ(parsed.dims, original.dims);
  EXPECT_EQ(parsed.data_type, original.data_type);
  EXPECT_EQ(parsed.name, original.name);
  EXPECT_TRUE(parsed.has_raw_data);
  EXPECT_EQ(parsed.raw_data, original.raw_data);
}

TEST(TensorProto, RoundTripsAnEmptyTensor) {
  HostTensor empty;
  empty.data_type = onnx::kInt64;
  empty.shape = {2, 0, 3};
  onnx::TensorProto parsed;
  std::string error;
  ASSERT_TRUE(onnx::parse_tensor(onnx::serialize_tensor(tensor_to_proto(empty, "e")), &parsed, &error));
  HostTensor back;
  ASSERT_TRUE(tensor_from_proto(parsed, &back, &error)) << error;
  EXPECT_EQ(back.shape, empty.shape);
  EXPECT_TRUE(back.bytes.empty());
}

TEST(TensorProto, AcceptsPackedAndUnpackedRepeatedFieldsMixed) {
  // dims: 2 unpacked, then [3, 4] packed; int32_data: -1 as a sign-extended
  // 10-byte varint, then 5 packed.
  const std::string bytes =
      bytes_of({0x08, 0x02, 0x0a, 0x02, 0x03, 0x04, 0x10, onnx::kInt32, 0x28, 0xff, 0xff, 0xff,
                0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0x2a, 0x01, 0x05});
  onnx::TensorProto tensor;
  std::string error;
  ASSERT_TRUE(onnx::parse_tensor(bytes, &tensor, &error)) << error;
  EXPECT_EQ(tensor.dims, (std::vector<int64_t>{2, 3, 4}));
  EXPECT_EQ(tensor.int32_data, (std::vector<int32_t>{-1, 5}));
}

TEST(TensorProto, ReadsTypedFieldsIntoElementBytes) {
  onnx::TensorProto proto;
  proto.dims = {3};
  proto.data_type = onnx::kFloat16;
  proto.int32_data = {0x3c00, 0xc000, 0x7c00};  // 1, -2, inf as float16 bits
  HostTensor tensor;
  std::string error;
  ASSERT_TRUE(tensor_from_proto(proto, &tensor, &error)) << error;
  ASSERT_EQ(tensor.bytes.size(), 6u);
  uint16_t halves[3];
  std::memcpy(halves, tensor.bytes.data(), sizeof halves);
  EXPECT_EQ(float16_to_float(halves[0]), 1.0f);
  EXPECT_EQ(float16_to_float(halves[1]), -2.0f);
  EXPECT_TRUE(std::isinf(float16_to_float(halves[2])));

  proto = onnx::TensorProto();
  proto.dims = {2};
  proto.data_type = onnx::kInt8;
  proto.int32_data = {-3, 7};
  ASSERT_TRUE(tensor_from_proto(proto, &tensor, &error)) << error;
  EXPECT_EQ(tensor.bytes, (std::vector<unsigned char>{0xfd, 0x07}));
}

TEST(TensorProto, RejectsDataThatDoesNotMatchTheDims) {
  onnx::TensorProto proto;
  proto.name = "x";
  proto.dims = {2, 2};
  proto.data_type = onnx::kFloat;
  proto.has_raw_data = true;
  proto.raw_data = float_bytes({1, 2, 3});
  HostTensor tensor;
  std::string error;
  EXPECT_FALSE(tensor_from_proto(proto, &tensor, &error));
  EXPECT_NE(error.find("needs 16 bytes of raw_data, found 12"), std::string::npos) << error;

  proto.has_raw_data = false;
  proto.float_data = {1, 2, 3};
  EXPECT_FALSE(tensor_from_proto(proto, &tensor, &error));
  EXPECT_NE(error.find("needs 4 values, found 3 in float_data"), std::string::npos) << error;

  proto.dims = {-1};
  EXPECT_FALSE(tensor_from_proto(proto, &tensor, &error));
  EXPECT_NE(error.find("negative"), std::string::npos) << error;

  proto.dims = {int64_t{1} << 40, int64_t{1} << 40};
  EXPECT_FALSE(tensor_from_proto(proto, &tensor, &error));
  EXPECT_NE(error.find("more elements"), std::string::npos) << error;
}

TEST(TensorProto, RejectsUnsupportedStorage) {
  onnx::TensorProto proto;
  proto.data_type = onnx::kString;
  HostTensor tensor;
  std::string error;
  EXPECT_FALSE(tensor_from_proto(proto, &tensor, &error));
  EXPECT_NE(error.find("string"), std::string::npos) << error;

  proto.data_type = onnx::kFloat;
  proto.external_data = true;
  EXPECT_FALSE(tensor_from_proto(proto, &tensor, &error));
  EXPECT_NE(error.find("external"), std::string::npos) << error;
}

TEST(MalformedInput, TruncatedVarint) {
  EXPECT_NE(parse_tensor_error(bytes_of({0x08, 0x80})).find("truncated varint at byte 1"),
            std::string::npos);
  EXPECT_NE(parse_tensor_error(bytes_of({0x88})).find("truncated varint at byte 0"),
            std::string::npos);
}

TEST(MalformedInput, LengthPastTheEnd) {
  const std::string error = parse_tensor_error(bytes_of({0x4a, 0x05, 'a'}));
  EXPECT_NE(error.find("claims 5 bytes but only 1 remain"), std::string::npos) << error;
  // A length near 2^64 must not wrap around the bounds check.
  const std::string huge = parse_tensor_error(
      bytes_of({0x4a, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 'a'}));
  EXPECT_NE(huge.find("remain"), std::string::npos) << huge;
}

TEST(MalformedInput, LengthPastTheEndOfTheEnclosingMessage) {
  // The node claims 3 bytes; its attribute inside claims 50. The file has
  // plenty of bytes after the node, but they are not the node's to give.
  std::string graph = bytes_of({0x0a, 0x03, 0x2a, 0x32, 0x00});
  graph += std::string(60, '\0');
  wire::Writer model;
  model.bytes(7, graph);
  onnx::ModelProto parsed;
  std::string error;
  EXPECT_FALSE(onnx::parse_model(model.data(), &parsed, &error));
  EXPECT_NE(error.find("NodeProto"), std::string::npos) << error;
  EXPECT_NE(error.find("claims 50 bytes but only 1 remain"), std::string::npos) << error;
}

TEST(MalformedInput, OverlongVarint) {
  const std::string error = parse_tensor_error(
      bytes_of({0x08, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}));
  EXPECT_NE(error.find("longer than 10 bytes"), std::string::npos) << error;
}

TEST(MalformedInput, BadTagsAndWireTypes) {
  EXPECT_NE(parse_tensor_error(bytes_of({0x00, 0x01})).find("invalid field number 0"),
            std::string::npos);
  EXPECT_NE(parse_tensor_error(bytes_of({0x0f})).find("invalid wire type 7"), std::string::npos);
  EXPECT_NE(parse_tensor_error(bytes_of({0x0b})).find("groups"), std::string::npos);
  // name (field 8) must be length-delimited.
  EXPECT_NE(parse_tensor_error(bytes_of({0x40, 0x01})).find("field 8 (name) has wire type varint"),
            std::string::npos);
  // A truncated fixed32 and a packed float run that is not a whole number of floats.
  EXPECT_NE(parse_tensor_error(bytes_of({0x25, 0x00, 0x00})).find("truncated 32-bit"),
            std::string::npos);
  EXPECT_NE(parse_tensor_error(bytes_of({0x22, 0x03, 0, 0, 0})).find("not a multiple of 4"),
            std::string::npos);
}

TEST(ModelProto, ReadsGraphNodeAndAttributes) {
  onnx::ModelProto model;
  std::string error;
  ASSERT_TRUE(onnx::parse_model(maxpool_model_bytes(), &model, &error)) << error;
  EXPECT_EQ(model.ir_version, 10);
  ASSERT_EQ(model.opset_imports.size(), 1u);
  EXPECT_EQ(model.opset_imports[0].domain, "");
  EXPECT_EQ(model.opset_imports[0].version, 22);
  ASSERT_TRUE(model.has_graph);
  EXPECT_EQ(model.graph.name, "g");
  EXPECT_EQ(model.graph.input_names, (std::vector<std::string>{"x", "w"}));
  EXPECT_EQ(model.graph.output_names, (std::vector<std::string>{"y"}));
  EXPECT_EQ(model.graph.initializer_names, (std::vector<std::string>{"w"}));
  ASSERT_EQ(model.graph.nodes.size(), 1u);
  const onnx::NodeProto& node = model.graph.nodes[0];
  EXPECT_EQ(node.op_type, "MaxPool");
  EXPECT_EQ(node.inputs, (std::vector<std::string>{"x"}));
  EXPECT_EQ(node.outputs, (std::vector<std::string>{"y", "indices"}));
  ASSERT_EQ(node.attributes.size(), 4u);
  EXPECT_EQ(node.attributes[0].name, "kernel_shape");
  EXPECT_EQ(node.attributes[0].type, AttributeType::kInts);
  EXPECT_EQ(node.attributes[0].ints, (std::vector<int64_t>{3, 3}));
  EXPECT_EQ(node.attributes[1].type, AttributeType::kString);
  EXPECT_EQ(node.attributes[1].s, "SAME_UPPER");
  EXPECT_EQ(node.attributes[2].type, AttributeType::kFloat);
  EXPECT_EQ(node.attributes[2].f, 0.25f);
  EXPECT_EQ(node.attributes[3].type, AttributeType::kInt);
  EXPECT_EQ(node.attributes[3].i, -1);
}

TEST(MalformedInput, EveryTruncationAndCorruptionFailsCleanly) {
  const std::string model = maxpool_model_bytes();
  for (size_t length = 0; length < model.size(); ++length) {
    onnx::ModelProto parsed;
    std::string error;
    if (!onnx::parse_model(model.substr(0, length), &parsed, &error)) {
      EXPECT_FALSE(error.empty()) << "truncated at " << length;
    }
  }
  std::mt19937 random(1234);
  for (int trial = 0; trial < 2000; ++trial) {
    std::string corrupt = model;
    for (int flips = 0; flips < 3; ++flips) {
      corrupt[random() % corrupt.size()] = static_cast<char>(random() & 0xff);
    }
    onnx::ModelProto parsed;
    std::string error;
    if (!onnx::parse_model(corrupt, &parsed, &error)) {
      EXPECT_FALSE(error.empty());
    }
  }
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
