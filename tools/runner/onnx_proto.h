// The slice of onnx.proto (https://github.com/onnx/onnx/blob/main/onnx/onnx.proto)
// the conformance runner needs: a model holding a graph of nodes, their
// attributes, and TensorProto files. Fields not listed here are skipped, so
// newer files still load.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace onnxpool_runner::onnx {

// TensorProto.DataType values used by name in the runner.
enum DataType : int32_t {
  kUndefined = 0,
  kFloat = 1,
  kUInt8 = 2,
  kInt8 = 3,
  kUInt16 = 4,
  kInt16 = 5,
  kInt32 = 6,
  kInt64 = 7,
  kString = 8,
  kBool = 9,
  kFloat16 = 10,
  kDouble = 11,
  kUInt32 = 12,
  kUInt64 = 13,
  kComplex64 = 14,
  kComplex128 = 15,
  kBFloat16 = 16,
};

// A short name for any TensorProto.DataType value ("float32", "int4", ...),
// or "data_type N" for one this runner does not know.
std::string data_type_name(int32_t data_type);

struct TensorProto {
  std::vector<int64_t> dims;
  int32_t data_type = kUndefined;
  std::string name;
  bool has_raw_data = false;
  std::string raw_data;  // little-endian element bytes
  // The typed fields, each holding the element types the schema assigns to it.
  std::vector<float> float_data;      // float, complex64
  std::vector<int32_t> int32_data;    // int32 and narrower ints, bool, and the bit
                                      // patterns of float16, bfloat16 and float8
  std::vector<int64_t> int64_data;    // int64
  std::vector<double> double_data;    // double, complex128
  std::vector<uint64_t> uint64_data;  // uint32, uint64
  size_t string_data_count = 0;       // string tensors are not loaded, only counted
  bool has_segment = false;
  bool external_data = false;         // data_location == EXTERNAL
};

enum class AttributeType : int32_t {
  kUndefined = 0,
  kFloat = 1,
  kInt = 2,
  kString = 3,
  kTensor = 4,
  kGraph = 5,
  kFloats = 6,
  kInts = 7,
  kStrings = 8,
  kTensors = 9,
  kGraphs = 10,
  kSparseTensor = 11,
  kSparseTensors = 12,
  kTypeProto = 13,
  kTypeProtos = 14,
};

// "INT", "FLOATS", ...: the spelling onnx.proto uses.
std::string attribute_type_name(AttributeType type);

struct AttributeProto {
  std::string name;
  AttributeType type = AttributeType::kUndefined;
  float f = 0.0f;
  int64_t i = 0;
  std::string s;
  std::vector<float> floats;
  std::vector<int64_t> ints;
  std::string ref_attr_name;  // set only inside function bodies
};

struct NodeProto {
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  std::string name;
  std::string op_type;
  std::string domain;
  std::vector<AttributeProto> attributes;
};

struct GraphProto {
  std::string name;
  std::vector<NodeProto> nodes;
  std::vector<std::string> initializer_names;  // initializer values are not needed
  std::vector<std::string> input_names;        // ValueInfoProto.name, in order
  std::vector<std::string> output_names;
};

struct OperatorSetId {
  std::string domain;
  int64_t version = 0;
};

struct ModelProto {
  int64_t ir_version = 0;
  std::vector<OperatorSetId> opset_imports;
  bool has_graph = false;
  GraphProto graph;
};

// Parse a serialized message. On malformed input they return false and set
// *error to a message naming the message, field and byte offset; they never
// read outside `bytes`.
bool parse_model(std::string_view bytes, ModelProto* model, std::string* error);
bool parse_tensor(std::string_view bytes, TensorProto* tensor, std::string* error);

// Serializes dims, data_type, name and raw_data: enough for a backend-test
// input_K.pb / output_K.pb. The typed *_data fields are not written.
std::string serialize_tensor(const TensorProto& tensor);

}  // namespace onnxpool_runner::onnx
