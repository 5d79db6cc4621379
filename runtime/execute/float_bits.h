// A float32's bit pattern and back, for the runtime's exact float handling
// (half_widening.cpp's conversions, float32_lp.cpp's magnitude thresholds).
// memcpy, not a union or a pointer cast: the one C++17 way without undefined
// behaviour, and compilers lower it to a register move.
#pragma once

#include <cstdint>
#include <cstring>

namespace onnxpool::detail {

inline uint32_t bits_of(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

inline float from_bits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

}  // namespace onnxpool::detail
