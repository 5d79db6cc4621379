// Reading model.onnx and TensorProto files with the onnx library's message
// classes (onnx.proto compiled by protoc; cmake/OnnxpoolOnnxProto.cmake), with
// errors that say which field of the file is broken.
#pragma once

#include <cstdint>
#include <string>

#include "onnx/onnx.pb.h"

namespace onnxpool_runner {

// A short name for any TensorProto.DataType value ("float32", "int4", ...),
// or "data_type N" for one this runner does not know.
std::string data_type_name(int32_t data_type);

// "INT", "FLOATS", ...: the spelling onnx.proto uses; "attribute type N" for
// a value it does not define.
std::string attribute_type_name(int32_t type);

// Parse a serialized message. On malformed input they return false and set
// *error to the path of the first field that does not parse, e.g.
// "graph.node[0].attribute[1]: malformed protobuf data (onnx.AttributeProto)".
bool parse_model(const std::string& bytes, onnx::ModelProto* model, std::string* error);
bool parse_tensor(const std::string& bytes, onnx::TensorProto* tensor, std::string* error);

}  // namespace onnxpool_runner
