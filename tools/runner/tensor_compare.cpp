#include "tensor_compare.h"

#include <cmath>
#include <cstdio>
#include <cstring>

#include "float_bits.h"

namespace onnxpool_runner {

namespace {

bool is_float_type(int32_t data_type) {
  return data_type == onnx::TensorProto::FLOAT || data_type == onnx::TensorProto::DOUBLE ||
         data_type == onnx::TensorProto::FLOAT16 || data_type == onnx::TensorProto::BFLOAT16;
}

template <typename T>
T load(const unsigned char* p) {
  T value;
  std::memcpy(&value, p, sizeof value);
  return value;
}

// The element as a double; exact for every float type and for integers up to 2^53.
double float_value(int32_t data_type, const unsigned char* p) {
  switch (data_type) {
    case onnx::TensorProto::FLOAT: return load<float>(p);
    case onnx::TensorProto::DOUBLE: return load<double>(p);
    case onnx::TensorProto::FLOAT16: return float16_to_float(load<uint16_t>(p));
    case onnx::TensorProto::BFLOAT16: return bfloat16_to_float(load<uint16_t>(p));
    default: return 0.0;
  }
}

std::string format_element(int32_t data_type, const unsigned char* p) {
  char text[64];
  switch (data_type) {
    case onnx::TensorProto::FLOAT: std::snprintf(text, sizeof text, "%.9g", load<float>(p)); break;
    case onnx::TensorProto::DOUBLE: std::snprintf(text, sizeof text, "%.17g", load<double>(p)); break;
    case onnx::TensorProto::FLOAT16:
    case onnx::TensorProto::BFLOAT16:
      std::snprintf(text, sizeof text, "%.6g (bits 0x%04x)", float_value(data_type, p),
                    static_cast<unsigned>(load<uint16_t>(p)));
      break;
    case onnx::TensorProto::INT8: std::snprintf(text, sizeof text, "%d", load<int8_t>(p)); break;
    case onnx::TensorProto::UINT8: std::snprintf(text, sizeof text, "%u", load<uint8_t>(p)); break;
    case onnx::TensorProto::INT16: std::snprintf(text, sizeof text, "%d", load<int16_t>(p)); break;
    case onnx::TensorProto::UINT16: std::snprintf(text, sizeof text, "%u", load<uint16_t>(p)); break;
    case onnx::TensorProto::INT32: std::snprintf(text, sizeof text, "%d", load<int32_t>(p)); break;
    case onnx::TensorProto::UINT32: std::snprintf(text, sizeof text, "%u", load<uint32_t>(p)); break;
    case onnx::TensorProto::INT64:
      std::snprintf(text, sizeof text, "%lld", static_cast<long long>(load<int64_t>(p)));
      break;
    case onnx::TensorProto::UINT64:
      std::snprintf(text, sizeof text, "%llu", static_cast<unsigned long long>(load<uint64_t>(p)));
      break;
    default: {
      // Types with no numeric meaning here (bool, float8): show the byte.
      std::snprintf(text, sizeof text, "byte 0x%02x", static_cast<unsigned>(*p));
      break;
    }
  }
  return text;
}

// Row-major multi-index of a flat element index, e.g. "[0, 1, 2, 2]".
std::string index_to_string(size_t flat, const std::vector<int64_t>& shape) {
  std::vector<int64_t> index(shape.size(), 0);
  for (size_t axis = shape.size(); axis-- > 0;) {
    const auto extent = static_cast<size_t>(shape[axis]);
    index[axis] = static_cast<int64_t>(flat % extent);
    flat /= extent;
  }
  return shape_to_string(index);
}

bool same_element(int32_t data_type, const unsigned char* expected, const unsigned char* actual,
                  size_t width, Comparison how, const Tolerance& tolerance) {
  if (!is_float_type(data_type)) return std::memcmp(expected, actual, width) == 0;
  const double e = float_value(data_type, expected);
  const double a = float_value(data_type, actual);
  // NaN payloads carry no meaning for pooling; any NaN matches any NaN.
  if (std::isnan(e) || std::isnan(a)) return std::isnan(e) && std::isnan(a);
  if (how == Comparison::kExact) return std::memcmp(expected, actual, width) == 0;
  if (std::isinf(e) || std::isinf(a)) return e == a;
  return std::fabs(a - e) <= tolerance.absolute + tolerance.relative * std::fabs(e);
}

}  // namespace

Tolerance tolerance_for(int32_t data_type) {
  if (data_type == onnx::TensorProto::FLOAT16 || data_type == onnx::TensorProto::BFLOAT16) return {1e-2, 1e-6};
  return {1e-5, 1e-6};
}

std::string compare_tensors(const HostTensor& expected, const HostTensor& actual, Comparison how) {
  return compare_tensors(expected, actual, how, nullptr);
}

std::string compare_tensors(const HostTensor& expected, const HostTensor& actual, Comparison how,
                            const Tolerance* tolerance_override) {
  if (expected.data_type != actual.data_type) {
    return "type mismatch: expected " + data_type_name(expected.data_type) + ", got " +
           data_type_name(actual.data_type);
  }
  if (expected.shape != actual.shape) {
    return "shape mismatch: expected " + shape_to_string(expected.shape) + ", got " +
           shape_to_string(actual.shape);
  }
  const size_t width = element_byte_size(expected.data_type);
  if (width == 0 || expected.bytes.size() != actual.bytes.size() ||
      expected.bytes.size() % width != 0) {
    return "cannot compare tensors of " + data_type_name(expected.data_type) + " holding " +
           std::to_string(expected.bytes.size()) + " and " + std::to_string(actual.bytes.size()) +
           " bytes";
  }
  const size_t count = expected.bytes.size() / width;
  const Tolerance tolerance =
      tolerance_override != nullptr ? *tolerance_override : tolerance_for(expected.data_type);
  size_t differing = 0;
  size_t first = 0;
  for (size_t i = 0; i < count; ++i) {
    if (!same_element(expected.data_type, &expected.bytes[i * width], &actual.bytes[i * width],
                      width, how, tolerance)) {
      if (differing++ == 0) first = i;
    }
  }
  if (differing == 0) return "";
  return "value mismatch at index " + index_to_string(first, expected.shape) + ": expected " +
         format_element(expected.data_type, &expected.bytes[first * width]) + ", got " +
         format_element(actual.data_type, &actual.bytes[first * width]) + " (" +
         std::to_string(differing) + " of " + std::to_string(count) + " elements differ" +
         (how == Comparison::kExact ? ", exact comparison)" : ")");
}

}  // namespace onnxpool_runner
