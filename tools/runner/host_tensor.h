// A dense tensor owned in host memory: what the runner loads from a .pb file,
// hands to onnxpool, and writes back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "onnx_messages.h"

namespace onnxpool_runner {

struct HostTensor {
  int32_t data_type = onnx::TensorProto::UNDEFINED;  // a TensorProto.DataType value
  std::vector<int64_t> shape;
  // Row-major, little-endian element bytes. std::vector's allocation is
  // aligned for any scalar type, so the bytes can be viewed as elements.
  std::vector<unsigned char> bytes;
};

// Bytes per element for the fixed-width types the runner can hold; 0 for the
// others (string, complex, 4-bit and 2-bit types).
size_t element_byte_size(int32_t data_type);

// Product of `shape`, refusing negative dims and overflow of int64 and of
// size_t byte counts for `element_size`.
bool element_count(const std::vector<int64_t>& shape, size_t element_size, size_t* count,
                   std::string* error);

// Unpacks raw_data or the typed field the schema assigns to the data type.
// Fails with a message for unsupported types, external data and a value count
// that does not match the dims.
bool tensor_from_proto(const onnx::TensorProto& proto, HostTensor* tensor, std::string* error);

// A TensorProto holding `tensor` as raw_data, named `name`.
onnx::TensorProto tensor_to_proto(const HostTensor& tensor, const std::string& name);

// "[1, 3, 32, 32]"
std::string shape_to_string(const std::vector<int64_t>& shape);

}  // namespace onnxpool_runner
