// Arithmetic the summing pools (AveragePool, LpPool and their global forms)
// share: accumulator types, integer powers and Lp roots.
#pragma once

#include <map>
#include <string>

#include "Halide.h"

namespace onnxpool::gen {

// Sums of 16-bit floats and of float32 accumulate in float32 (ONNX asks this
// of 16-bit types); float64 in float64.
inline Halide::Type sum_type(const Halide::Type& element) {
  return element.is_float() && element.bits() == 64 ? Halide::Float(64) : Halide::Float(32);
}

// Converts between X's type and an accumulator. 16-bit floats go through
// float32, bfloat16 by its bits (exact widening, round-to-nearest-even
// narrowing, NaN kept), so the result does not depend on how Halide lowers
// bfloat16 conversions on each target. float64 -> float32 -> 16-bit can
// round twice; the 16-bit types are compared at 1e-2 anyway.
inline Halide::Expr convert(const Halide::Type& to, Halide::Expr value) {
  auto is_half = [](const Halide::Type& t) { return t.bits() == 16 && (t.is_float() || t.is_bfloat()); };
  if (value.type().is_bfloat() && to != value.type()) {
    // Widen by its bits: a bfloat16 is the top half of a float32.
    Halide::Expr bits = Halide::cast(Halide::UInt(32), Halide::reinterpret(Halide::UInt(16), value)) << 16;
    value = Halide::reinterpret(Halide::Float(32), bits);
  }
  if (value.type() == Halide::Float(16) && to != value.type()) {
    // On targets without F16C (the SSE4.1 baseline) a float16 NaN came out
    // of the summing kernels as inf; NaN is carried explicitly both ways.
    Halide::Expr bits = Halide::reinterpret(Halide::UInt(16), value);
    Halide::Expr nan = (bits & 0x7FFF) > 0x7C00;
    Halide::Expr quiet_nan = Halide::reinterpret(Halide::Float(32), Halide::Expr(uint32_t(0x7FC00000u)));
    value = Halide::select(nan, quiet_nan, Halide::cast(Halide::Float(32), value));
  }
  if ((is_half(value.type()) || is_half(to)) && value.type() != Halide::Float(32) && to != Halide::Float(32)) {
    value = Halide::cast(Halide::Float(32), value);
  }
  if (to == Halide::Float(16) && value.type() == Halide::Float(32)) {
    return Halide::select(Halide::is_nan(value), Halide::reinterpret(to, Halide::Expr(uint16_t(0x7E00))),
                          Halide::cast(to, value));
  }
  if (to.is_bfloat() && value.type() == Halide::Float(32)) {
    // Narrow by its bits too: round to nearest even, NaN stays NaN.
    Halide::Expr bits = Halide::reinterpret(Halide::UInt(32), value);
    Halide::Expr rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16;
    Halide::Expr narrow = Halide::select(Halide::is_nan(value), Halide::Expr(0x7FC0u), rounded);
    return Halide::reinterpret(to, Halide::cast(Halide::UInt(16), narrow));
  }
  return Halide::cast(to, value);
}

// The identity of + in IEEE arithmetic, which the summing pools start from
// and pad with: -0.0, not +0.0 (+0 + -0 is +0, so a window of -0 taps would
// come out +0; numpy keeps -0). Its bit pattern is also not one repeated
// byte, so LLVM keeps the fill of a row buffer as vector stores instead of a
// memset call per row: AveragePool S4 96 -> 88 us. A window of padding only
// sums to -0.0.
inline Halide::Expr additive_identity(const Halide::Type& t) { return Halide::Internal::make_const(t, -0.0); }

// LpPool without scaling sums |x|^p directly, in a type wide enough that no
// value of the element type overflows or underflows it for the p the runtime
// allows there (runtime/lp_pool.cpp: unscaled_lp_is_exact): float64 for
// float32 and bfloat16 (p <= 6), float32 for float16 (p <= 5).
inline Halide::Type unscaled_lp_sum_type(const Halide::Type& element) {
  // (Halide's is_float() is true for bfloat16 too.)
  const bool float16 = element.is_float() && !element.is_bfloat() && element.bits() == 16;
  return float16 ? Halide::Float(32) : Halide::Float(64);
}

// t^p for an integer p >= 1 known only at run time, t >= 0 (or NaN). The
// common p get plain products, which a schedule's specialize(p == k) reduces
// the select to. Others call Halide's pow, a polynomial exp/log accurate to
// the last few bits for finite positive t but wrong for 0, inf and NaN
// (pow(inf, 7) gave 3.2e5), which therefore pass through as they are: each
// is its own p-th power.
inline Halide::Expr integer_power(const Halide::Expr& t, const Halide::Expr& p) {
  Halide::Expr t2 = t * t;
  Halide::Expr itself = t == Halide::Internal::make_zero(t.type()) || !Halide::is_finite(t);
  return Halide::select(p == 1, t, p == 2, t2, p == 3, t2 * t, p == 4, t2 * t2, itself, t,
                        Halide::pow(t, Halide::cast(t.type(), p)));
}

// s^(1/p), the inverse of integer_power, with the same care for 0, inf, NaN.
inline Halide::Expr integer_root(const Halide::Expr& s, const Halide::Expr& p) {
  Halide::Expr itself = s == Halide::Internal::make_zero(s.type()) || !Halide::is_finite(s);
  return Halide::select(p == 1, s, p == 2, Halide::sqrt(s), itself, s, Halide::pow(s, 1 / Halide::cast(s.type(), p)));
}

// How an Lp kernel keeps sum |x|^p from overflowing or underflowing
// (lppool_generator.cpp; the runtime picks one per call, runtime/lp_pool.cpp).
enum class LpAlgorithm {
  kWide,     // sum in a type so much wider than X's that nothing can go wrong
  kFloat32,  // sum in float32: only for inputs the range check passed
  kScaled,   // divide each window by its largest magnitude: any type and p
};

inline const std::map<std::string, LpAlgorithm> kLpAlgorithmNames = {
    {"wide", LpAlgorithm::kWide}, {"float32", LpAlgorithm::kFloat32}, {"scaled", LpAlgorithm::kScaled}};

// The p that get loop nests of their own (one copy of the loop nest each;
// ONNX defaults to p = 2).
constexpr int kFixedPowers[] = {1, 2};

// Whether the runtime takes this algorithm's kernel for `element` only for
// p > 6 (p > 5 for float16): the scaled kernels of the types that have a wide
// sum for the smaller p (runtime/lp_pool.cpp: unscaled_lp_is_exact). float64
// has no other algorithm, so its scaled kernel serves every p. A kernel only
// for large p gets no copy of its loop nest for kFixedPowers (they would never
// run) and none for the common windows (separable_pool.h: a rare call pays
// for it, not every build). The float32 2D scaled LpPool kernel (AVX2)
// generated in 30.5 s with both, 2.9 s without.
inline bool lp_kernel_only_for_large_p(LpAlgorithm algorithm, const Halide::Type& element) {
  return algorithm == LpAlgorithm::kScaled && !(element.is_float() && !element.is_bfloat() && element.bits() == 64);
}

// A scale for magnitudes up to `largest`: the largest itself when it is a
// positive finite number, else 1 (all zeros: nothing to scale; inf or NaN:
// the unscaled sum already gives inf or NaN).
inline Halide::Expr magnitude_scale(const Halide::Expr& largest) {
  const Halide::Type t = largest.type();
  return Halide::select(largest > Halide::Internal::make_zero(t) && Halide::is_finite(largest), largest,
                        Halide::Internal::make_one(t));
}

}  // namespace onnxpool::gen
