// HostTensor: an owning, dense, row-major tensor for the tests, holding any
// element type the pooling operators take plus int64 for Indices.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "onnxpool/tensor.h"

namespace onnxpool_test {

using onnxpool::ElementType;

// The tests' own view of the element types, independent of the library's
// element_size() / element_type_name().
size_t bytes_per_element(ElementType type);
const char* type_label(ElementType type);
bool is_floating_point(ElementType type);
// The identity of max: -inf for the float types, the minimum for the integers.
double lowest_value(ElementType type);

int64_t element_count(const std::vector<int64_t>& shape);
std::string shape_to_string(const std::vector<int64_t>& shape);

class HostTensor {
 public:
  HostTensor() = default;
  HostTensor(ElementType type, std::vector<int64_t> shape);

  ElementType type() const { return type_; }
  const std::vector<int64_t>& shape() const { return shape_; }
  int64_t size() const { return size_; }
  size_t byte_size() const { return static_cast<size_t>(size_) * bytes_per_element(type_); }
  void* data() { return storage_.data(); }
  const void* data() const { return storage_.data(); }

  // Every element type converts to double exactly, so the reference works in double.
  double get(int64_t index) const;
  // Rounds to nearest even for the float types; for the integer types the
  // value must be representable (anything else is a bug in the test).
  void set(int64_t index, double value);
  int64_t get_int64(int64_t index) const;
  void set_int64(int64_t index, int64_t value);
  bool is_nan(int64_t index) const;
  // Copies the raw bits, so a NaN keeps its payload and sign.
  void copy_element(int64_t index, const HostTensor& source, int64_t source_index);
  // An element's raw bits, zero-extended (a NaN's payload and sign, -0).
  uint64_t bits(int64_t index) const;
  void set_bits(int64_t index, uint64_t bits);

  void fill_bytes(uint8_t byte);
  bool same_bytes(const HostTensor& other) const;
  // A copy with each element rounded once to `type` (e.g. an exact float64
  // reference result brought to the operator's output type).
  HostTensor converted_to(ElementType type) const;

  onnxpool::TensorView view() { return onnxpool::TensorView(data(), type_, shape_); }
  onnxpool::TensorView view() const { return onnxpool::TensorView(data(), type_, shape_); }

 private:
  unsigned char* element_address(int64_t index);
  const unsigned char* element_address(int64_t index) const;

  ElementType type_ = ElementType::kFloat32;
  std::vector<int64_t> shape_;
  int64_t size_ = 0;
  // uint64_t words: 8-byte alignment for every element type, and never empty,
  // so data() is a real pointer even for a tensor without elements.
  std::vector<uint64_t> storage_ = std::vector<uint64_t>(1);
};

}  // namespace onnxpool_test
