#include "api/call_guard.h"
#include "execute/half_widening.h"

#include <cmath>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "dispatch/cpu_dispatch.h"
#include "execute/float_bits.h"

namespace onnxpool::detail {
namespace {

size_t element_count(const TensorView& t) {
  int64_t n = 1;
  for (int64_t d : t.shape) n *= d;
  return static_cast<size_t>(n);
}

#if defined(__x86_64__)
// One vcvtph2ps per 8 values: a scalar conversion of each value's bits ran
// a 4 GiB float16 GlobalAveragePool (large_planes.cpp) at 0.5 GB/s.
__attribute__((target("avx,f16c"))) void widen_float16_f16c(const uint16_t* in, float* out, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    _mm256_storeu_ps(out + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i))));
  }
  for (; i < n; ++i) out[i] = float16_to_float(in[i]);
}
#endif

}  // namespace

void widen_half(const uint16_t* in, ElementType type, float* out, int64_t n) {
  if (type == ElementType::kBFloat16) {
    for (int64_t i = 0; i < n; ++i) out[i] = bfloat16_to_float(in[i]);
    return;
  }
#if defined(__x86_64__)
  // The AVX2 variant's CPUs have F16C (cpu_dispatch.cpp checks it).
  if (host_supports(CpuVariant::kAvx2)) return widen_float16_f16c(in, out, n);
#elif defined(__aarch64__)
  // ARMv8 converts __fp16 in hardware (fcvtl), and the loop vectorizes.
  const auto* half = reinterpret_cast<const __fp16*>(in);
  for (int64_t i = 0; i < n; ++i) out[i] = static_cast<float>(half[i]);
  return;
#endif
  for (int64_t i = 0; i < n; ++i) out[i] = float16_to_float(in[i]);
}

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
  widen_half(static_cast<const uint16_t*>(t.data), t.type, values_.data(), static_cast<int64_t>(values_.size()));
}

void WidenedTensor::narrow_into(const TensorView& t) const {
  auto* out = static_cast<uint16_t*>(t.data);
  const bool bfloat = t.type == ElementType::kBFloat16;
  for (size_t i = 0; i < values_.size(); ++i) {
    out[i] = bfloat ? float_to_bfloat16(values_[i]) : float_to_float16(values_[i]);
  }
}

}  // namespace onnxpool::detail
