// MaxPool compares values through order-preserving signed integer keys.
//
// Why: IEEE 754-2019 `maximum` (NaN propagates, +0 > -0) is order-independent,
// so the separable two-pass schedule gives the same bits as a scan-order loop,
// and a signed integer max is one instruction where a NaN-aware float max
// is four. 16-bit floats stay 16-bit (twice the lanes of widening to float32).
//
// Key of a float with bit pattern b (w bits, P = bits of +inf):
//   key = b >=signed 0 ? b : P - b      (w-bit, wrapping; compared signed)
//   key = min(key, P + 1)               every NaN -> one key, so the first
//                                       NaN in scan order wins
// Non-negative floats keep their bits: +0 .. +inf, then the positive NaNs
// above +inf. Negative ones go below zero in reverse: -0 -> P - sign bit,
// just under +0, down to -inf -> P - bits(-inf) = the lowest w-bit value;
// the negative NaNs, whose bits lie past -inf's, wrap around to above +inf.
// The last step only matters for Indices (which NaN is "first"); without it
// a window's NaN keys differ by payload, but all map back to NaN. On x86
// AVX2 a 32-bit key is two ops (vpsubd, and vblendvps, which reads b's sign
// bit itself), so with its max three per element; a 16-bit one needs the
// sign spread over both bytes first (no 16-bit blend), one op more.
//
// Measured against the unsigned keys used before (t = b ^ ((b >>s (w-1))
// >>u 1), then t - t(-inf) for an unsigned max: five ops per element with
// the max), AMD EPYC Zen 3 VM, AVX2, float32 kernels swapped into the same
// library, onnxpool / XNNPACK NHWC in the same process, medians of 6
// alternations, 1 thread / 2 threads: MaxPool S1 1.34 -> 1.18 / 1.33 ->
// 1.10 (200 -> 171 us, 108 -> 89); GlobalMaxPool S5 1.48 -> 1.09 / 1.01 ->
// 0.87 (12.5 -> 10.5 us); MaxPool S4 the same within noise (124 -> 123 us).
// The float32 2D MaxPool AVX2 kernel has 23% fewer instructions (6105 -> 4689).
//
// The subtractions are written on unsigned types, where Halide defines
// wrapping; signed 32- and 64-bit overflow is undefined to its simplifier.
#pragma once

#include "Halide.h"

namespace onnxpool::gen {

inline bool is_floating(const Halide::Type& t) { return t.is_float() || t.is_bfloat(); }

inline Halide::Type key_type(const Halide::Type& t) { return is_floating(t) ? Halide::Int(t.bits()) : t; }

namespace detail {

// Bits of +inf as an unsigned w-bit pattern.
inline uint64_t positive_infinity_bits(const Halide::Type& t) {
  if (t.is_bfloat()) return 0x7F80;
  switch (t.bits()) {
    case 16: return 0x7C00;
    case 32: return 0x7F800000u;
    default: return 0x7FF0000000000000ull;
  }
}

inline uint64_t quiet_nan_bits(const Halide::Type& t) {
  if (t.is_bfloat()) return 0x7FC0;
  switch (t.bits()) {
    case 16: return 0x7E00;
    case 32: return 0x7FC00000u;
    default: return 0x7FF8000000000000ull;
  }
}

// P - x on w-bit patterns, wrapping, as a signed key.
inline Halide::Expr infinity_minus(const Halide::Expr& x, const Halide::Type& t) {
  const Halide::Type s = Halide::Int(t.bits());
  const Halide::Type u = Halide::UInt(t.bits());
  Halide::Expr difference = Halide::Internal::make_const(u, positive_infinity_bits(t)) - Halide::reinterpret(u, x);
  return Halide::reinterpret(s, difference);
}

}  // namespace detail

// `one_nan_key`: map every NaN to one key (needed when ties between NaNs matter).
inline Halide::Expr to_key(const Halide::Expr& value, bool one_nan_key) {
  const Halide::Type t = value.type();
  if (!is_floating(t)) return value;
  const Halide::Type s = Halide::Int(t.bits());
  Halide::Expr bits = Halide::reinterpret(s, value);
  Halide::Expr key = Halide::select(bits < 0, detail::infinity_minus(bits, t), bits);
  if (!one_nan_key) return key;
  return Halide::min(key, Halide::Internal::make_const(s, detail::positive_infinity_bits(t) + 1));
}

// The inverse, with every NaN key turned into the canonical quiet NaN.
inline Halide::Expr from_key(const Halide::Expr& key, const Halide::Type& t) {
  if (!is_floating(t)) return key;
  const Halide::Type s = Halide::Int(t.bits());
  Halide::Expr nan = key > Halide::Internal::make_const(s, detail::positive_infinity_bits(t));
  Halide::Expr bits = Halide::select(nan, Halide::Internal::make_const(s, detail::quiet_nan_bits(t)), key >= 0, key,
                                     detail::infinity_minus(key, t));
  return Halide::reinterpret(t, bits);
}

// Key of the reduction's identity: -inf for floats, the lowest value for
// integers. A window with no tap in the input reports it.
inline Halide::Expr lowest_key(const Halide::Type& t) { return is_floating(t) ? Halide::Int(t.bits()).min() : t.min(); }

}  // namespace onnxpool::gen
