// MaxPool compares values through order-preserving integer keys.
//
// Why: IEEE 754-2019 `maximum` (NaN propagates, +0 > -0) is order-independent,
// so the separable two-pass schedule gives the same bits as a scan-order loop,
// and integer max is one instruction where a NaN-aware float max is four.
// 16-bit floats stay 16-bit (twice the lanes of widening to float32).
//
// Key of a float's bit pattern b (signed integer of the same width):
//   non-negative b  -> b            (ordering of positive floats = their bits)
//   negative b      -> b ^ MAGNITUDE_MASK (flips the order of negatives)
//   any NaN         -> the largest key, which maps back to a quiet NaN.
// The map is its own inverse on every non-NaN key.
#pragma once

#include "Halide.h"

namespace onnxpool::gen {

inline Halide::Type key_type(const Halide::Type& t) {
  return t.is_float() || t.is_bfloat() ? Halide::Int(t.bits()) : t;
}

// Largest bit pattern of +inf: anything above it (sign cleared) is a NaN.
inline Halide::Expr infinity_bits(const Halide::Type& t) {
  const Halide::Type k = key_type(t);
  if (t.is_bfloat()) return Halide::cast(k, 0x7F80);
  switch (t.bits()) {
    case 16: return Halide::cast(k, 0x7C00);
    case 32: return Halide::cast(k, 0x7F800000);
    default: return Halide::cast(k, Halide::Expr(int64_t(0x7FF0000000000000LL)));
  }
}

inline Halide::Expr to_key(const Halide::Expr& value) {
  const Halide::Type t = value.type();
  if (!(t.is_float() || t.is_bfloat())) return value;
  const Halide::Type k = key_type(t);
  const Halide::Expr bits = Halide::reinterpret(k, value);
  const Halide::Expr magnitude_mask = k.max();
  const Halide::Expr flip = (bits >> (t.bits() - 1)) & magnitude_mask;  // all ones below sign, or 0
  const Halide::Expr is_nan = (bits & magnitude_mask) > infinity_bits(t);
  return Halide::select(is_nan, k.max(), bits ^ flip);
}

inline Halide::Expr from_key(const Halide::Expr& key, const Halide::Type& t) {
  if (!(t.is_float() || t.is_bfloat())) return key;
  const Halide::Type k = key_type(t);
  const Halide::Expr flip = (key >> (t.bits() - 1)) & k.max();
  return Halide::reinterpret(t, key ^ flip);
}

// Key of the reduction's identity: -inf for floats, the lowest value for
// integers. A window with no tap in the input reports it.
inline Halide::Expr lowest_key(const Halide::Type& t) {
  if (!(t.is_float() || t.is_bfloat())) return t.min();
  const Halide::Type k = key_type(t);
  // -inf has bits sign|infinity; its key is those bits ^ magnitude mask.
  return (infinity_bits(t) | k.min()) ^ k.max();
}

}  // namespace onnxpool::gen
