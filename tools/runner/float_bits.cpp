#include "float_bits.h"

#include <cmath>
#include <cstring>

namespace onnxpool_runner {

namespace {

float from_bits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

constexpr uint32_t kHalfExponentBias = 15;
constexpr uint32_t kFloatExponentBias = 127;

}  // namespace

float float16_to_float(uint16_t bits) {
  const uint32_t sign = static_cast<uint32_t>(bits >> 15) << 31;
  const uint32_t exponent = (bits >> 10) & 0x1f;
  const uint32_t mantissa = bits & 0x3ff;
  if (exponent == 0x1f) {
    // Inf or NaN; shifting the mantissa keeps the NaN payload and quiet bit.
    return from_bits(sign | 0x7f800000u | (mantissa << 13));
  }
  if (exponent == 0) {
    // Zero or subnormal: mantissa * 2^-24, exact in float32.
    const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -magnitude : magnitude;
  }
  const uint32_t float_exponent = exponent - kHalfExponentBias + kFloatExponentBias;
  return from_bits(sign | (float_exponent << 23) | (mantissa << 13));
}

float bfloat16_to_float(uint16_t bits) {
  return from_bits(static_cast<uint32_t>(bits) << 16);
}

}  // namespace onnxpool_runner
