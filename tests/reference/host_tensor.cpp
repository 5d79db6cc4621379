#include "reference/host_tensor.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "reference/float_formats.h"

namespace onnxpool_test {

size_t bytes_per_element(ElementType type) {
  switch (type) {
    case ElementType::kFloat32: return 4;
    case ElementType::kUInt8: return 1;
    case ElementType::kInt8: return 1;
    case ElementType::kInt64: return 8;
    case ElementType::kFloat16: return 2;
    case ElementType::kFloat64: return 8;
    case ElementType::kBFloat16: return 2;
  }
  throw std::logic_error("bytes_per_element: unknown element type");
}

const char* type_label(ElementType type) {
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

bool is_floating_point(ElementType type) {
  return type == ElementType::kFloat32 || type == ElementType::kFloat16 ||
         type == ElementType::kBFloat16 || type == ElementType::kFloat64;
}

double lowest_value(ElementType type) {
  switch (type) {
    case ElementType::kInt8: return -128.0;
    case ElementType::kUInt8: return 0.0;
    case ElementType::kInt64: return static_cast<double>(std::numeric_limits<int64_t>::min());
    default: return -std::numeric_limits<double>::infinity();
  }
}

int64_t element_count(const std::vector<int64_t>& shape) {
  // An empty shape's other extents may multiply past int64 (found by api_fuzzer).
  if (std::find(shape.begin(), shape.end(), 0) != shape.end()) return 0;
  int64_t count = 1;
  for (int64_t extent : shape) count *= extent;
  return count;
}

std::string shape_to_string(const std::vector<int64_t>& shape) {
  std::ostringstream out;
  out << '[';
  for (size_t i = 0; i < shape.size(); ++i) out << (i ? "," : "") << shape[i];
  out << ']';
  return out.str();
}

HostTensor::HostTensor(ElementType type, std::vector<int64_t> shape)
    : type_(type), shape_(std::move(shape)), size_(element_count(shape_)) {
  for (int64_t extent : shape_) {
    if (extent < 0) throw std::logic_error("HostTensor: negative extent in " + shape_to_string(shape_));
  }
  const size_t bytes = byte_size();
  storage_.assign(bytes / sizeof(uint64_t) + 1, 0);
}

unsigned char* HostTensor::element_address(int64_t index) {
  if (index < 0 || index >= size_) throw std::out_of_range("HostTensor: element index out of range");
  return reinterpret_cast<unsigned char*>(storage_.data()) + index * bytes_per_element(type_);
}

const unsigned char* HostTensor::element_address(int64_t index) const {
  return const_cast<HostTensor*>(this)->element_address(index);
}

namespace {

template <typename T>
T load(const unsigned char* address) {
  T value;
  std::memcpy(&value, address, sizeof value);
  return value;
}

template <typename T>
void store(unsigned char* address, T value) {
  std::memcpy(address, &value, sizeof value);
}

// int64 elements are Indices, written through set_int64; through set() they
// take only integers a double holds exactly.
template <typename Int>
Int exact_integer(double value) {
  const double low = std::max(static_cast<double>(std::numeric_limits<Int>::min()), -0x1p53);
  const double high = std::min(static_cast<double>(std::numeric_limits<Int>::max()), 0x1p53);
  if (!(value == std::floor(value)) || value < low || value > high) {
    throw std::logic_error("HostTensor::set: value not representable in an integer element");
  }
  return static_cast<Int>(value);
}

}  // namespace

double HostTensor::get(int64_t index) const {
  const unsigned char* address = element_address(index);
  switch (type_) {
    case ElementType::kFloat32: return load<float>(address);
    case ElementType::kFloat64: return load<double>(address);
    case ElementType::kFloat16: return float16_to_float(load<uint16_t>(address));
    case ElementType::kBFloat16: return bfloat16_to_float(load<uint16_t>(address));
    case ElementType::kInt8: return load<int8_t>(address);
    case ElementType::kUInt8: return load<uint8_t>(address);
    case ElementType::kInt64: return static_cast<double>(load<int64_t>(address));
  }
  throw std::logic_error("HostTensor::get: unknown element type");
}

void HostTensor::set(int64_t index, double value) {
  unsigned char* address = element_address(index);
  switch (type_) {
    case ElementType::kFloat32: return store<float>(address, static_cast<float>(value));
    case ElementType::kFloat64: return store<double>(address, value);
    case ElementType::kFloat16: return store<uint16_t>(address, float16_from_double(value));
    case ElementType::kBFloat16: return store<uint16_t>(address, bfloat16_from_double(value));
    case ElementType::kInt8: return store<int8_t>(address, exact_integer<int8_t>(value));
    case ElementType::kUInt8: return store<uint8_t>(address, exact_integer<uint8_t>(value));
    case ElementType::kInt64: return store<int64_t>(address, exact_integer<int64_t>(value));
  }
  throw std::logic_error("HostTensor::set: unknown element type");
}

int64_t HostTensor::get_int64(int64_t index) const {
  if (type_ != ElementType::kInt64) throw std::logic_error("HostTensor::get_int64 on a non-int64 tensor");
  return load<int64_t>(element_address(index));
}

void HostTensor::set_int64(int64_t index, int64_t value) {
  if (type_ != ElementType::kInt64) throw std::logic_error("HostTensor::set_int64 on a non-int64 tensor");
  store<int64_t>(element_address(index), value);
}

bool HostTensor::is_nan(int64_t index) const {
  return is_floating_point(type_) && std::isnan(get(index));
}

uint64_t HostTensor::bits(int64_t index) const {
  uint64_t value = 0;
  std::memcpy(&value, element_address(index), bytes_per_element(type_));
  return value;
}

void HostTensor::set_bits(int64_t index, uint64_t bits) {
  std::memcpy(element_address(index), &bits, bytes_per_element(type_));
}

void HostTensor::copy_element(int64_t index, const HostTensor& source, int64_t source_index) {
  if (source.type_ != type_) throw std::logic_error("HostTensor::copy_element between different types");
  std::memcpy(element_address(index), source.element_address(source_index), bytes_per_element(type_));
}

void HostTensor::fill_bytes(uint8_t byte) {
  std::memset(storage_.data(), byte, storage_.size() * sizeof(uint64_t));
}

bool HostTensor::same_bytes(const HostTensor& other) const {
  return type_ == other.type_ && shape_ == other.shape_ &&
         std::memcmp(data(), other.data(), byte_size()) == 0;
}

HostTensor HostTensor::converted_to(ElementType type) const {
  HostTensor result(type, shape_);
  for (int64_t i = 0; i < size_; ++i) result.set(i, get(i));
  return result;
}

}  // namespace onnxpool_test
