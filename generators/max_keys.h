// MaxPool compares values through order-preserving unsigned integer keys.
//
// Why: IEEE 754-2019 `maximum` (NaN propagates, +0 > -0) is order-independent,
// so the separable two-pass schedule gives the same bits as a scan-order loop,
// and an unsigned integer max is one instruction where a NaN-aware float max
// is four. 16-bit floats stay 16-bit (twice the lanes of widening to float32).
//
// Key of a float with bit pattern b (w bits, arithmetic on w-bit integers):
//   t = b ^ ((b >>signed (w-1)) >>unsigned 1)   negatives: order reversed
//   key = t - t(-inf)  (wrapping)                -inf -> 0, every NaN -> above +inf
//   key = min(key, key(+inf) + 1)                every NaN -> one key, so the
//                                                first NaN in scan order wins
// The last step only matters for Indices (which NaN is "first"); without it a
// window's NaN keys differ by payload, but all map back to NaN. Four or five
// cheap integer ops per element. The inverse undoes the first two steps and
// turns every NaN key into the canonical quiet NaN.
#pragma once

#include "Halide.h"

namespace onnxpool::gen {

inline bool is_floating(const Halide::Type& t) { return t.is_float() || t.is_bfloat(); }

inline Halide::Type key_type(const Halide::Type& t) { return is_floating(t) ? Halide::UInt(t.bits()) : t; }

namespace detail {

// Bits of -inf as an unsigned w-bit pattern.
inline uint64_t negative_infinity_bits(const Halide::Type& t) {
  if (t.is_bfloat()) return 0xFF80;
  switch (t.bits()) {
    case 16: return 0xFC00;
    case 32: return 0xFF800000u;
    default: return 0xFFF0000000000000ull;
  }
}

// t(b) on a constant, to fold the offset at generator time.
inline uint64_t order_bits(uint64_t b, int bits) {
  const uint64_t sign = uint64_t(1) << (bits - 1);
  const uint64_t magnitude = sign - 1;
  return (b & sign) ? (b ^ magnitude) : b;
}

inline Halide::Expr flip_negatives(const Halide::Expr& bits_unsigned, const Halide::Type& t) {
  const Halide::Type s = Halide::Int(t.bits());
  const Halide::Type u = Halide::UInt(t.bits());
  Halide::Expr all_ones_if_negative = Halide::reinterpret(u, Halide::reinterpret(s, bits_unsigned) >> (t.bits() - 1));
  // An and-mask rather than a shift: x86 AVX-512 fuses xor-of-and into one vpternlog.
  return bits_unsigned ^ (all_ones_if_negative & Halide::reinterpret(u, s.max()));
}

inline Halide::Expr key_offset(const Halide::Type& t) {
  return Halide::Internal::make_const(Halide::UInt(t.bits()), order_bits(negative_infinity_bits(t), t.bits()));
}

// +inf's bits are -inf's without the sign; the next pattern up is a NaN.
inline uint64_t nan_key_value(const Halide::Type& t) {
  const uint64_t positive_infinity = negative_infinity_bits(t) & ~(uint64_t(1) << (t.bits() - 1));
  const uint64_t mask = t.bits() == 64 ? ~uint64_t(0) : (uint64_t(1) << t.bits()) - 1;
  return (order_bits(positive_infinity, t.bits()) + 1 - order_bits(negative_infinity_bits(t), t.bits())) & mask;
}

inline uint64_t quiet_nan_bits(const Halide::Type& t) {
  if (t.is_bfloat()) return 0x7FC0;
  switch (t.bits()) {
    case 16: return 0x7E00;
    case 32: return 0x7FC00000u;
    default: return 0x7FF8000000000000ull;
  }
}

}  // namespace detail

// `one_nan_key`: map every NaN to one key (needed when ties between NaNs matter).
inline Halide::Expr to_key(const Halide::Expr& value, bool one_nan_key) {
  const Halide::Type t = value.type();
  if (!is_floating(t)) return value;
  const Halide::Type u = Halide::UInt(t.bits());
  Halide::Expr bits = Halide::reinterpret(u, value);
  Halide::Expr key = detail::flip_negatives(bits, t) - detail::key_offset(t);
  return one_nan_key ? Halide::min(key, Halide::Internal::make_const(u, detail::nan_key_value(t))) : key;
}

inline Halide::Expr from_key(const Halide::Expr& key, const Halide::Type& t) {
  if (!is_floating(t)) return key;
  // flip_negatives is its own inverse: it keeps the sign bit it keys on.
  const Halide::Type u = Halide::UInt(t.bits());
  Halide::Expr bits = detail::flip_negatives(key + detail::key_offset(t), t);
  bits = Halide::select(key >= Halide::Internal::make_const(u, detail::nan_key_value(t)),
                        Halide::Internal::make_const(u, detail::quiet_nan_bits(t)), bits);
  return Halide::reinterpret(t, bits);
}

// Key of the reduction's identity: -inf for floats, the lowest value for
// integers. A window with no tap in the input reports it.
inline Halide::Expr lowest_key(const Halide::Type& t) {
  return is_floating(t) ? Halide::Internal::make_const(key_type(t), 0) : t.min();
}

}  // namespace onnxpool::gen
