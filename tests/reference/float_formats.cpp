#include "reference/float_formats.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace onnxpool_test {
namespace {

// Both formats are 1 sign bit + exponent_bits + mantissa_bits = 16 bits.
struct SmallFloatFormat {
  int exponent_bits;
  int mantissa_bits;

  int bias() const { return (1 << (exponent_bits - 1)) - 1; }
  uint32_t exponent_mask() const { return ((1u << exponent_bits) - 1) << mantissa_bits; }
  uint32_t quiet_bit() const { return 1u << (mantissa_bits - 1); }
};

constexpr SmallFloatFormat kBinary16{5, 10};
constexpr SmallFloatFormat kBfloat16{8, 7};
constexpr uint32_t kSignBit16 = 0x8000;

uint16_t encode(double value, SmallFloatFormat format) {
  const uint32_t sign = std::signbit(value) ? kSignBit16 : 0;
  if (std::isnan(value)) return static_cast<uint16_t>(sign | format.exponent_mask() | format.quiet_bit());
  const double magnitude = std::fabs(value);
  if (magnitude == 0.0) return static_cast<uint16_t>(sign);
  if (std::isinf(magnitude)) return static_cast<uint16_t>(sign | format.exponent_mask());

  // magnitude lies in [2^(e-1), 2^e). Subnormals share the smallest normal exponent.
  int e = 0;
  std::frexp(magnitude, &e);
  const int min_exponent = 1 - format.bias();
  const int exponent = std::max(e - 1, min_exponent);
  // Scale so that one unit in the last place of the target is 1.0. The scaling
  // is exact in double, so nearbyint (default mode: ties to even) is the only
  // rounding step.
  const double units = std::nearbyint(std::ldexp(magnitude, format.mantissa_bits - exponent));
  // For a normal number units is in [2^m, 2^(m+1)] and the implicit leading 1
  // adds one to the exponent field; for a subnormal the field is 0 and units < 2^m.
  // The same sum covers both, and a carry of the rounding into the next binade.
  const int64_t field = (static_cast<int64_t>(exponent + format.bias() - 1) << format.mantissa_bits) +
                        static_cast<int64_t>(units);
  if (field >= static_cast<int64_t>(format.exponent_mask()))
    return static_cast<uint16_t>(sign | format.exponent_mask());
  return static_cast<uint16_t>(sign | static_cast<uint32_t>(field));
}

constexpr int kFloatMantissaBits = 23;

uint16_t encode_float(float value, SmallFloatFormat format) {
  if (!std::isnan(value)) return encode(value, format);
  // Keep what fits of the payload; the quiet bit guarantees the result is still
  // a NaN even when the payload lived only in the dropped low bits.
  const uint32_t bits = float_bits(value);
  const uint32_t payload = (bits & 0x7FFFFFu) >> (kFloatMantissaBits - format.mantissa_bits);
  const uint32_t sign = (bits >> 31) ? kSignBit16 : 0;
  return static_cast<uint16_t>(sign | format.exponent_mask() | format.quiet_bit() | payload);
}

float decode(uint16_t bits, SmallFloatFormat format) {
  const bool negative = (bits & kSignBit16) != 0;
  const uint32_t exponent_field = (bits & format.exponent_mask()) >> format.mantissa_bits;
  const uint32_t mantissa = bits & ((1u << format.mantissa_bits) - 1);
  if (exponent_field == (1u << format.exponent_bits) - 1) {
    // Infinity or NaN: widen the mantissa in place so the payload survives.
    const uint32_t wide = (negative ? 0x80000000u : 0u) | 0x7F800000u |
                          (mantissa << (kFloatMantissaBits - format.mantissa_bits));
    return float_from_bits(wide);
  }
  double magnitude;
  if (exponent_field == 0) {
    magnitude = std::ldexp(static_cast<double>(mantissa), 1 - format.bias() - format.mantissa_bits);
  } else {
    magnitude = std::ldexp(static_cast<double>((1u << format.mantissa_bits) | mantissa),
                           static_cast<int>(exponent_field) - format.bias() - format.mantissa_bits);
  }
  return static_cast<float>(negative ? -magnitude : magnitude);
}

}  // namespace

uint32_t float_bits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

float float_from_bits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

uint16_t float16_from_double(double value) { return encode(value, kBinary16); }
uint16_t bfloat16_from_double(double value) { return encode(value, kBfloat16); }
uint16_t float16_from_float(float value) { return encode_float(value, kBinary16); }
uint16_t bfloat16_from_float(float value) { return encode_float(value, kBfloat16); }
float float16_to_float(uint16_t bits) { return decode(bits, kBinary16); }
float bfloat16_to_float(uint16_t bits) { return decode(bits, kBfloat16); }

}  // namespace onnxpool_test
