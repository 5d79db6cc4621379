#include "call_guard.h"
#include "half_widening.h"

#include <cmath>

#include "float_bits.h"

namespace onnxpool::detail {
namespace {

size_t element_count(const TensorView& t) {
  int64_t n = 1;
  for (int64_t d : t.shape) n *= d;
  return static_cast<size_t>(n);
}

}  // namespace

bool is_half_type(ElementType type) { return type == ElementType::kFloat16 || type == ElementType::kBFloat16; }

float float16_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exponent = (h >> 10) & 0x1Fu;
  const uint32_t mantissa = h & 0x3FFu;
  if (exponent == 0x1F) return from_bits(sign | 0x7F800000u | (mantissa << 13));  // inf, NaN
  if (exponent == 0) {
    // Zero or subnormal: mantissa * 2^-24, exact in float32.
    const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -magnitude : magnitude;
  }
  return from_bits(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

uint16_t float_to_float16(float value) {
  if (std::isnan(value)) return 0x7E00;
  const uint32_t b = bits_of(value);
  const auto sign = static_cast<uint16_t>((b >> 16) & 0x8000u);
  const float magnitude = std::fabs(value);
  if (magnitude >= 65520.0f) return sign | 0x7C00;  // rounds to inf
  if (magnitude < 6.103515625e-05f) {
    // A subnormal (or the smallest normal, 1024 * 2^-24): a multiple of
    // 2^-24; nearbyint rounds ties to even in the default rounding mode.
    return sign | static_cast<uint16_t>(std::nearbyint(magnitude * 16777216.0f));
  }
  const uint32_t m = b & 0x7FFFFFFFu;
  const uint32_t rounded = (m + 0xFFFu + ((m >> 13) & 1u)) >> 13;
  return sign | static_cast<uint16_t>(rounded - (112u << 10));
}

float bfloat16_to_float(uint16_t bits) { return from_bits(static_cast<uint32_t>(bits) << 16); }

uint16_t float_to_bfloat16(float value) {
  if (std::isnan(value)) return 0x7FC0;
  const uint32_t b = bits_of(value);
  return static_cast<uint16_t>((b + 0x7FFFu + ((b >> 16) & 1u)) >> 16);
}

WidenedTensor::WidenedTensor(const TensorView& t, bool copy_values)
    : values_(element_count(t)), view_(values_.data(), ElementType::kFloat32, t.shape) {
  note_host_allocation();  // the widened copy
  if (!copy_values) return;
  const auto* in = static_cast<const uint16_t*>(t.data);
  const bool bfloat = t.type == ElementType::kBFloat16;
  for (size_t i = 0; i < values_.size(); ++i) values_[i] = bfloat ? bfloat16_to_float(in[i]) : float16_to_float(in[i]);
}

void WidenedTensor::narrow_into(const TensorView& t) const {
  auto* out = static_cast<uint16_t*>(t.data);
  const bool bfloat = t.type == ElementType::kBFloat16;
  for (size_t i = 0; i < values_.size(); ++i) {
    out[i] = bfloat ? float_to_bfloat16(values_[i]) : float_to_float16(values_[i]);
  }
}

}  // namespace onnxpool::detail
