#include "onnx_proto.h"

#include <cstring>

#include "protobuf_wire.h"

namespace onnxpool_runner::onnx {

namespace {

using wire::Field;
using wire::Reader;

// Field numbers from onnx.proto.
namespace tensor_field {
constexpr uint32_t kDims = 1, kDataType = 2, kSegment = 3, kFloatData = 4, kInt32Data = 5,
                   kStringData = 6, kInt64Data = 7, kName = 8, kRawData = 9, kDoubleData = 10,
                   kUInt64Data = 11, kDataLocation = 14;
constexpr uint64_t kLocationExternal = 1;
}  // namespace tensor_field
namespace attribute_field {
constexpr uint32_t kName = 1, kF = 2, kI = 3, kS = 4, kFloats = 7, kInts = 8, kType = 20,
                   kRefAttrName = 21;
}
namespace node_field {
constexpr uint32_t kInput = 1, kOutput = 2, kName = 3, kOpType = 4, kAttribute = 5, kDomain = 7;
}
namespace graph_field {
constexpr uint32_t kNode = 1, kName = 2, kInitializer = 5, kInput = 11, kOutput = 12;
}
constexpr uint32_t kValueInfoName = 1;
namespace opset_field {
constexpr uint32_t kDomain = 1, kVersion = 2;
}
namespace model_field {
constexpr uint32_t kIrVersion = 1, kGraph = 7, kOpsetImport = 8;
}

std::string as_string(const Field& field, const char* name) {
  return std::string(wire::expect_bytes(field, name));
}

float bits_to_float(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

double bits_to_double(uint64_t bits) {
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

void read_tensor(Reader reader, TensorProto* tensor) {
  using namespace tensor_field;
  std::vector<uint64_t> varints;
  std::vector<uint32_t> words;
  std::vector<uint64_t> doublewords;
  Field field;
  while (reader.next(&field)) {
    switch (field.number) {
      case kDims:
        varints.clear();
        wire::append_varints(field, "dims", &varints);
        for (uint64_t v : varints) tensor->dims.push_back(static_cast<int64_t>(v));
        break;
      case kDataType:
        tensor->data_type = static_cast<int32_t>(wire::expect_varint(field, "data_type"));
        break;
      case kSegment:
        tensor->has_segment = true;
        break;
      case kFloatData:
        words.clear();
        wire::append_fixed32(field, "float_data", &words);
        for (uint32_t w : words) tensor->float_data.push_back(bits_to_float(w));
        break;
      case kInt32Data:
        varints.clear();
        wire::append_varints(field, "int32_data", &varints);
        // int32 varints are sign-extended to 64 bits on the wire; keep the low half.
        for (uint64_t v : varints) tensor->int32_data.push_back(static_cast<int32_t>(v));
        break;
      case kStringData:
        wire::expect_bytes(field, "string_data");
        ++tensor->string_data_count;
        break;
      case kInt64Data:
        varints.clear();
        wire::append_varints(field, "int64_data", &varints);
        for (uint64_t v : varints) tensor->int64_data.push_back(static_cast<int64_t>(v));
        break;
      case kName:
        tensor->name = as_string(field, "name");
        break;
      case kRawData:
        tensor->raw_data = as_string(field, "raw_data");
        tensor->has_raw_data = true;
        break;
      case kDoubleData:
        doublewords.clear();
        wire::append_fixed64(field, "double_data", &doublewords);
        for (uint64_t d : doublewords) tensor->double_data.push_back(bits_to_double(d));
        break;
      case kUInt64Data:
        wire::append_varints(field, "uint64_data", &tensor->uint64_data);
        break;
      case kDataLocation:
        tensor->external_data = wire::expect_varint(field, "data_location") == kLocationExternal;
        break;
      default:
        break;  // doc_string, external_data entries, metadata: not needed
    }
  }
}

void read_attribute(Reader reader, AttributeProto* attribute) {
  using namespace attribute_field;
  bool has_f = false, has_i = false, has_s = false;
  std::vector<uint64_t> varints;
  std::vector<uint32_t> words;
  Field field;
  while (reader.next(&field)) {
    switch (field.number) {
      case kName:
        attribute->name = as_string(field, "name");
        break;
      case kF:
        attribute->f = wire::expect_float(field, "f");
        has_f = true;
        break;
      case kI:
        attribute->i = static_cast<int64_t>(wire::expect_varint(field, "i"));
        has_i = true;
        break;
      case kS:
        attribute->s = as_string(field, "s");
        has_s = true;
        break;
      case kFloats:
        words.clear();
        wire::append_fixed32(field, "floats", &words);
        for (uint32_t w : words) attribute->floats.push_back(bits_to_float(w));
        break;
      case kInts:
        varints.clear();
        wire::append_varints(field, "ints", &varints);
        for (uint64_t v : varints) attribute->ints.push_back(static_cast<int64_t>(v));
        break;
      case kType:
        attribute->type = static_cast<AttributeType>(wire::expect_varint(field, "type"));
        break;
      case kRefAttrName:
        attribute->ref_attr_name = as_string(field, "ref_attr_name");
        break;
      default:
        break;  // tensors, graphs, type protos: pooling nodes take none of them
    }
  }
  // Files from IR version 1 may omit `type`; infer it from the field that is set.
  if (attribute->type == AttributeType::kUndefined) {
    if (!attribute->ints.empty()) attribute->type = AttributeType::kInts;
    else if (!attribute->floats.empty()) attribute->type = AttributeType::kFloats;
    else if (has_i) attribute->type = AttributeType::kInt;
    else if (has_f) attribute->type = AttributeType::kFloat;
    else if (has_s) attribute->type = AttributeType::kString;
  }
}

void read_node(Reader reader, NodeProto* node) {
  using namespace node_field;
  Field field;
  while (reader.next(&field)) {
    switch (field.number) {
      case kInput: node->inputs.push_back(as_string(field, "input")); break;
      case kOutput: node->outputs.push_back(as_string(field, "output")); break;
      case kName: node->name = as_string(field, "name"); break;
      case kOpType: node->op_type = as_string(field, "op_type"); break;
      case kDomain: node->domain = as_string(field, "domain"); break;
      case kAttribute:
        wire::expect_bytes(field, "attribute");
        node->attributes.emplace_back();
        read_attribute(Reader::nested(field, "AttributeProto"), &node->attributes.back());
        break;
      default: break;
    }
  }
}

std::string read_value_info_name(Reader reader) {
  std::string name;
  Field field;
  while (reader.next(&field)) {
    if (field.number == kValueInfoName) name = as_string(field, "name");
  }
  return name;
}

void read_graph(Reader reader, GraphProto* graph) {
  using namespace graph_field;
  Field field;
  while (reader.next(&field)) {
    switch (field.number) {
      case kNode:
        wire::expect_bytes(field, "node");
        graph->nodes.emplace_back();
        read_node(Reader::nested(field, "NodeProto"), &graph->nodes.back());
        break;
      case kName:
        graph->name = as_string(field, "name");
        break;
      case kInitializer: {
        wire::expect_bytes(field, "initializer");
        TensorProto initializer;
        read_tensor(Reader::nested(field, "TensorProto (initializer)"), &initializer);
        graph->initializer_names.push_back(initializer.name);
        break;
      }
      case kInput:
        wire::expect_bytes(field, "input");
        graph->input_names.push_back(read_value_info_name(Reader::nested(field, "ValueInfoProto")));
        break;
      case kOutput:
        wire::expect_bytes(field, "output");
        graph->output_names.push_back(
            read_value_info_name(Reader::nested(field, "ValueInfoProto")));
        break;
      default:
        break;
    }
  }
}

void read_model(Reader reader, ModelProto* model) {
  using namespace model_field;
  Field field;
  while (reader.next(&field)) {
    switch (field.number) {
      case kIrVersion:
        model->ir_version = static_cast<int64_t>(wire::expect_varint(field, "ir_version"));
        break;
      case kGraph:
        wire::expect_bytes(field, "graph");
        model->has_graph = true;
        read_graph(Reader::nested(field, "GraphProto"), &model->graph);
        break;
      case kOpsetImport: {
        wire::expect_bytes(field, "opset_import");
        OperatorSetId opset;
        Reader opset_reader = Reader::nested(field, "OperatorSetIdProto");
        Field opset_field;
        while (opset_reader.next(&opset_field)) {
          if (opset_field.number == opset_field::kDomain) {
            opset.domain = as_string(opset_field, "domain");
          } else if (opset_field.number == opset_field::kVersion) {
            opset.version = static_cast<int64_t>(wire::expect_varint(opset_field, "version"));
          }
        }
        model->opset_imports.push_back(opset);
        break;
      }
      default:
        break;
    }
  }
}

// The one place where parse errors turn from exceptions into return values.
template <typename Message, typename ReadFn>
bool parse_top_level(std::string_view bytes, const char* message_name, ReadFn read,
                     Message* message, std::string* error) {
  *message = Message();
  try {
    read(Reader(bytes, message_name), message);
    return true;
  } catch (const wire::ParseError& e) {
    *error = e.what();
    *message = Message();
    return false;
  }
}

}  // namespace

std::string data_type_name(int32_t data_type) {
  static const char* const kNames[] = {
      "undefined", "float32",        "uint8",         "int8",           "uint16",
      "int16",     "int32",          "int64",         "string",         "bool",
      "float16",   "float64",        "uint32",        "uint64",         "complex64",
      "complex128", "bfloat16",      "float8e4m3fn",  "float8e4m3fnuz", "float8e5m2",
      "float8e5m2fnuz", "uint4",     "int4",          "float4e2m1",     "float8e8m0",
  };
  if (data_type >= 0 && data_type < static_cast<int32_t>(sizeof kNames / sizeof kNames[0])) {
    return kNames[data_type];
  }
  return "data_type " + std::to_string(data_type);
}

std::string attribute_type_name(AttributeType type) {
  static const char* const kNames[] = {
      "UNDEFINED", "FLOAT",   "INT",     "STRING",        "TENSOR",         "GRAPH",      "FLOATS",
      "INTS",      "STRINGS", "TENSORS", "GRAPHS",        "SPARSE_TENSOR",  "SPARSE_TENSORS",
      "TYPE_PROTO", "TYPE_PROTOS",
  };
  const auto index = static_cast<int32_t>(type);
  if (index >= 0 && index < static_cast<int32_t>(sizeof kNames / sizeof kNames[0])) {
    return kNames[index];
  }
  return "attribute type " + std::to_string(index);
}

bool parse_model(std::string_view bytes, ModelProto* model, std::string* error) {
  return parse_top_level(bytes, "ModelProto", read_model, model, error);
}

bool parse_tensor(std::string_view bytes, TensorProto* tensor, std::string* error) {
  return parse_top_level(bytes, "TensorProto", read_tensor, tensor, error);
}

std::string serialize_tensor(const TensorProto& tensor) {
  wire::Writer writer;
  for (int64_t dim : tensor.dims) {
    writer.varint(tensor_field::kDims, static_cast<uint64_t>(dim));
  }
  writer.varint(tensor_field::kDataType, static_cast<uint64_t>(static_cast<int64_t>(tensor.data_type)));
  if (!tensor.name.empty()) writer.bytes(tensor_field::kName, tensor.name);
  writer.bytes(tensor_field::kRawData, tensor.raw_data);
  return writer.data();
}

}  // namespace onnxpool_runner::onnx
