#include "onnx_messages.h"

#include <climits>
#include <map>
#include <memory>

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>
#include <google/protobuf/unknown_field_set.h>

namespace onnxpool_runner {

namespace {

namespace pb = google::protobuf;

bool parses_as(const pb::Message& prototype, const std::string& bytes) {
  std::unique_ptr<pb::Message> probe(prototype.New());
  return probe->ParseFromString(bytes);
}

// Deeper than protobuf's own recursion limit (100) is reported, not searched:
// a hostile file can nest messages far deeper than a stack can follow.
constexpr int kMaxSearchDepth = 100;

// Why `bytes` does not parse as `prototype`'s type, as the path of the
// innermost field that breaks. Protobuf's parser only says yes or no, so this
// walks the wire data generically (UnknownFieldSet) and re-parses each known
// field on its own until it finds the one that fails.
std::string locate_parse_failure(const pb::Message& prototype, const std::string& bytes,
                                 const std::string& path, int depth = 0) {
  const pb::Descriptor& type = *prototype.GetDescriptor();
  const std::string where = path.empty() ? "" : path + ": ";
  if (depth > kMaxSearchDepth) return where + "messages nested too deeply";
  pb::UnknownFieldSet fields;
  if (!fields.ParseFromString(bytes)) {
    return where + "malformed protobuf data (" + type.full_name() + ")";
  }
  std::map<int, int> seen;  // occurrences of each field number, for [index] in the path
  for (int i = 0; i < fields.field_count(); ++i) {
    const pb::UnknownField& field = fields.field(i);
    const int occurrence = seen[field.number()]++;
    const pb::FieldDescriptor* known = type.FindFieldByNumber(field.number());
    if (known == nullptr) continue;  // unknown fields are kept, never an error
    std::string field_path = (path.empty() ? "" : path + ".") + known->name();
    if (known->is_repeated()) field_path += "[" + std::to_string(occurrence) + "]";

    pb::UnknownFieldSet alone;
    alone.AddField(field);
    std::string alone_bytes;
    alone.SerializeToString(&alone_bytes);
    if (parses_as(prototype, alone_bytes)) continue;
    if (known->type() == pb::FieldDescriptor::TYPE_MESSAGE &&
        field.type() == pb::UnknownField::TYPE_LENGTH_DELIMITED) {
      const pb::Message* nested =
          pb::MessageFactory::generated_factory()->GetPrototype(known->message_type());
      if (nested != nullptr) {
        return locate_parse_failure(*nested, field.length_delimited(), field_path, depth + 1);
      }
    }
    return field_path + ": malformed value for a field of type " + known->type_name();
  }
  // Every field parses alone, so the whole is too deep or too large.
  return where + "does not parse as " + type.full_name() + " (nested too deeply or too large)";
}

bool parse_message(const std::string& bytes, pb::Message* message, std::string* error) {
  if (bytes.size() > static_cast<size_t>(INT_MAX)) {
    *error = "larger than protobuf's 2 GiB limit (" + std::to_string(bytes.size()) + " bytes)";
    return false;
  }
  if (message->ParseFromString(bytes)) return true;
  *error = locate_parse_failure(*message, bytes, "");
  return false;
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

std::string attribute_type_name(int32_t type) {
  if (onnx::AttributeProto_AttributeType_IsValid(type)) {
    return onnx::AttributeProto_AttributeType_Name(static_cast<onnx::AttributeProto_AttributeType>(type));
  }
  return "attribute type " + std::to_string(type);
}

bool parse_model(const std::string& bytes, onnx::ModelProto* model, std::string* error) {
  return parse_message(bytes, model, error);
}

bool parse_tensor(const std::string& bytes, onnx::TensorProto* tensor, std::string* error) {
  return parse_message(bytes, tensor, error);
}

}  // namespace onnxpool_runner
