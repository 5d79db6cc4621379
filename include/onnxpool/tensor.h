// TensorView: a non-owning view of a dense, row-major (NCHW, NCDHW, ...) tensor.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace onnxpool {

// ONNX TensorProto.DataType values, so conversion from ONNX is a cast.
enum class ElementType : int32_t {
  kFloat32 = 1,
  kUInt8 = 2,
  kInt8 = 3,
  kInt64 = 7,
  kFloat16 = 10,
  kFloat64 = 11,
  kBFloat16 = 16,
};

// Size in bytes of one element; 0 for a value outside the enum.
size_t element_size(ElementType type);
// ONNX spelling: "float32", "float16", "bfloat16", "float64", "int8", "uint8", "int64".
const char* element_type_name(ElementType type);

// Where the data lives. Host memory is the default; device memory needs a
// GPU-enabled build and is rejected with a clear status otherwise.
enum class Device { kHost, kCuda };

struct TensorView {
  void* data = nullptr;
  ElementType type = ElementType::kFloat32;
  std::vector<int64_t> shape;
  Device device = Device::kHost;

  TensorView() = default;
  TensorView(void* data_, ElementType type_, std::vector<int64_t> shape_,
             Device device_ = Device::kHost)
      : data(data_), type(type_), shape(std::move(shape_)), device(device_) {}
  // Spelled out so that TensorView(nullptr, ...) is not ambiguous.
  TensorView(std::nullptr_t, ElementType type_, std::vector<int64_t> shape_, Device device_ = Device::kHost)
      : data(nullptr), type(type_), shape(std::move(shape_)), device(device_) {}
  // For read-only inputs: onnxpool never writes through an input view.
  TensorView(const void* data_, ElementType type_, std::vector<int64_t> shape_,
             Device device_ = Device::kHost)
      : data(const_cast<void*>(data_)), type(type_), shape(std::move(shape_)), device(device_) {}
};

}  // namespace onnxpool
