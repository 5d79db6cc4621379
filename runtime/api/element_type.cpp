#include "onnxpool/tensor.h"

namespace onnxpool {

size_t element_size(ElementType type) {
  switch (type) {
    case ElementType::kInt8:
    case ElementType::kUInt8: return 1;
    case ElementType::kFloat16:
    case ElementType::kBFloat16: return 2;
    case ElementType::kFloat32: return 4;
    case ElementType::kFloat64:
    case ElementType::kInt64: return 8;
  }
  return 0;
}

const char* element_type_name(ElementType type) {
  switch (type) {
    case ElementType::kFloat32: return "float32";
    case ElementType::kUInt8: return "uint8";
    case ElementType::kInt8: return "int8";
    case ElementType::kInt64: return "int64";
    case ElementType::kFloat16: return "float16";
    case ElementType::kFloat64: return "float64";
    case ElementType::kBFloat16: return "bfloat16";
  }
  return "unknown";
}

}  // namespace onnxpool
