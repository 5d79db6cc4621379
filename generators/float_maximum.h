// The IEEE 754-2019 `maximum` of a few float32 or float64 taps without
// MaxPool's integer keys (max_keys.h): a plain float max, then its two
// weak spots overwritten.
//
// Why: a key costs three integer ops per tap and its inverse four per output.
// Where each tap is read once and nothing is stored between passes (the 2x2
// stride-2 kernels, halving_pool.h) that was 30% of the time: VGG's MaxPool
// 1x128x56x56 2x2/s2, that pipeline built on its own, measured 35 us with
// keys and 25 us with this (1 thread, AVX-512).
//
// A float max (one vmaxps per tap on x86) gives the right value whenever no
// tap is NaN and the result is not a zero; which NaN or which zero it keeps
// is unspecified (x86 keeps one operand, and Halide outside strict_float lets
// LLVM assume there are no NaNs). So:
//   - any NaN tap -> the canonical quiet NaN, as from_key gives (is_nan is
//     evaluated in strict_float whatever the target says);
//   - the sign bit of the result is cleared unless every tap has its sign bit
//     set: a zero result then comes out +0 when some tap is +0 (IEEE: +0 > -0)
//     and -0 only when all the window's zeros are -0; any other result keeps
//     its sign (a negative result means every tap was negative).
#pragma once

#include <vector>

#include "Halide.h"
#include "max_keys.h"

namespace onnxpool::gen {

inline bool has_float_maximum(const Halide::Type& t) { return t.is_float() && t.bits() >= 32; }

inline Halide::Expr float_maximum(const std::vector<Halide::Expr>& taps) {
  const Halide::Type t = taps.front().type();
  const Halide::Type bits_type = Halide::UInt(t.bits());
  auto bits = [&](const Halide::Expr& v) { return Halide::reinterpret(bits_type, v); };
  Halide::Expr largest = taps.front();
  Halide::Expr any_nan = Halide::is_nan(taps.front());
  Halide::Expr all_sign_bits = bits(taps.front());
  for (size_t i = 1; i < taps.size(); ++i) {
    largest = Halide::max(largest, taps[i]);
    any_nan = any_nan || Halide::is_nan(taps[i]);
    all_sign_bits = all_sign_bits & bits(taps[i]);
  }
  const uint64_t magnitude = (uint64_t(1) << (t.bits() - 1)) - 1;
  Halide::Expr signed_right =
      bits(largest) & (all_sign_bits | Halide::Internal::make_const(bits_type, magnitude));
  Halide::Expr canonical_nan = Halide::Internal::make_const(bits_type, detail::quiet_nan_bits(t));
  return Halide::reinterpret(t, Halide::select(any_nan, canonical_nan, signed_right));
}

}  // namespace onnxpool::gen
