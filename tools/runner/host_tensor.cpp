#include "host_tensor.h"

#include <cstring>
#include <limits>

// raw_data is little-endian, and the runner hands those bytes to onnxpool as
// they are; a big-endian host would need a byte swap here.
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "onnxpool_test_runner assumes a little-endian host"
#endif

namespace onnxpool_runner {

namespace {

// Copies each value's low `width` bytes, little-endian, into `out`.
template <typename Values>
void pack_values(const Values& values, size_t width, std::vector<unsigned char>* out) {
  out->resize(static_cast<size_t>(values.size()) * width);
  for (int i = 0; i < values.size(); ++i) {
    auto bits = static_cast<uint64_t>(values[i]);
    for (size_t b = 0; b < width; ++b) (*out)[i * width + b] = static_cast<unsigned char>(bits >> (8 * b));
  }
}

template <typename Values>
void copy_values(const Values& values, std::vector<unsigned char>* out) {
  out->resize(static_cast<size_t>(values.size()) * sizeof(values[0]));
  if (!values.empty()) std::memcpy(out->data(), values.data(), out->size());
}

// Picks the typed field onnx.proto assigns to `data_type` and unpacks it.
// Returns the number of values that field held.
int64_t unpack_typed_field(const onnx::TensorProto& proto, size_t width,
                           std::vector<unsigned char>* bytes, const char** field_name) {
  switch (proto.data_type()) {
    case onnx::TensorProto::FLOAT:
      *field_name = "float_data";
      copy_values(proto.float_data(), bytes);
      return proto.float_data_size();
    case onnx::TensorProto::DOUBLE:
      *field_name = "double_data";
      copy_values(proto.double_data(), bytes);
      return proto.double_data_size();
    case onnx::TensorProto::INT64:
      *field_name = "int64_data";
      copy_values(proto.int64_data(), bytes);
      return proto.int64_data_size();
    case onnx::TensorProto::UINT32:
    case onnx::TensorProto::UINT64:
      *field_name = "uint64_data";
      pack_values(proto.uint64_data(), width, bytes);
      return proto.uint64_data_size();
    default:
      // int32_data carries every narrower integer and the bit patterns of
      // float16, bfloat16 and float8, one value per int32.
      *field_name = "int32_data";
      pack_values(proto.int32_data(), width, bytes);
      return proto.int32_data_size();
  }
}

}  // namespace

size_t element_byte_size(int32_t data_type) {
  switch (data_type) {
    case onnx::TensorProto::UINT8:
    case onnx::TensorProto::INT8:
    case onnx::TensorProto::BOOL:
      return 1;
    case onnx::TensorProto::UINT16:
    case onnx::TensorProto::INT16:
    case onnx::TensorProto::FLOAT16:
    case onnx::TensorProto::BFLOAT16:
      return 2;
    case onnx::TensorProto::FLOAT:
    case onnx::TensorProto::INT32:
    case onnx::TensorProto::UINT32:
      return 4;
    case onnx::TensorProto::INT64:
    case onnx::TensorProto::DOUBLE:
    case onnx::TensorProto::UINT64:
      return 8;
    case onnx::TensorProto::FLOAT8E4M3FN:
    case onnx::TensorProto::FLOAT8E4M3FNUZ:
    case onnx::TensorProto::FLOAT8E5M2:
    case onnx::TensorProto::FLOAT8E5M2FNUZ:
    case onnx::TensorProto::FLOAT8E8M0:
      return 1;
    default:
      return 0;
  }
}

bool element_count(const std::vector<int64_t>& shape, size_t element_size, size_t* count,
                   std::string* error) {
  const uint64_t limit = std::numeric_limits<size_t>::max() / (element_size ? element_size : 1);
  uint64_t product = 1;
  for (int64_t dim : shape) {
    if (dim < 0) {
      *error = "shape " + shape_to_string(shape) + " has a negative dimension";
      return false;
    }
    if (dim != 0 && product > limit / static_cast<uint64_t>(dim)) {
      *error = "shape " + shape_to_string(shape) + " has more elements than memory can hold";
      return false;
    }
    product *= static_cast<uint64_t>(dim);
  }
  *count = static_cast<size_t>(product);
  return true;
}

bool tensor_from_proto(const onnx::TensorProto& proto, HostTensor* tensor, std::string* error) {
  const std::string type = data_type_name(proto.data_type());
  const std::string& name = proto.name();
  if (proto.data_location() == onnx::TensorProto::EXTERNAL) {
    *error = "tensor '" + name + "' keeps its data in an external file (data_location), which the runner does not read";
    return false;
  }
  if (proto.has_segment()) {
    *error = "tensor '" + name + "' is a segment of a larger tensor (segment), which the runner does not read";
    return false;
  }
  const size_t width = element_byte_size(proto.data_type());
  if (width == 0) {
    *error = "tensor '" + name + "' has element type " + type + " (data_type), which the runner does not support";
    return false;
  }
  const std::vector<int64_t> dims(proto.dims().begin(), proto.dims().end());
  size_t count = 0;
  if (!element_count(dims, width, &count, error)) {
    *error = "tensor '" + name + "' dims: " + *error;
    return false;
  }
  HostTensor result;
  result.data_type = proto.data_type();
  result.shape = dims;
  if (proto.has_raw_data()) {
    if (proto.raw_data().size() != count * width) {
      *error = "tensor '" + name + "' of " + type + " " + shape_to_string(dims) + " needs " +
               std::to_string(count * width) + " bytes of raw_data, found " +
               std::to_string(proto.raw_data().size());
      return false;
    }
    result.bytes.assign(proto.raw_data().begin(), proto.raw_data().end());
  } else {
    const char* field_name = "";
    const int64_t values = unpack_typed_field(proto, width, &result.bytes, &field_name);
    if (values != static_cast<int64_t>(count)) {
      *error = "tensor '" + name + "' of " + type + " " + shape_to_string(dims) + " needs " +
               std::to_string(count) + " values, found " + std::to_string(values) + " in " +
               field_name;
      return false;
    }
  }
  *tensor = std::move(result);
  return true;
}

onnx::TensorProto tensor_to_proto(const HostTensor& tensor, const std::string& name) {
  onnx::TensorProto proto;
  for (int64_t dim : tensor.shape) proto.add_dims(dim);
  proto.set_data_type(tensor.data_type);
  proto.set_name(name);
  proto.set_raw_data(std::string(tensor.bytes.begin(), tensor.bytes.end()));
  return proto;
}

std::string shape_to_string(const std::vector<int64_t>& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) text += ", ";
    text += std::to_string(shape[i]);
  }
  return text + "]";
}

}  // namespace onnxpool_runner
