// Arithmetic the summing pools (AveragePool, LpPool and their global forms)
// share: accumulator types, integer powers and Lp roots.
#pragma once

#include "Halide.h"

namespace onnxpool::gen {

// Sums of 16-bit floats and of float32 accumulate in float32 (ONNX asks this
// of 16-bit types); float64 in float64.
inline Halide::Type sum_type(const Halide::Type& element) {
  return element.is_float() && element.bits() == 64 ? Halide::Float(64) : Halide::Float(32);
}

// LpPool without scaling sums |x|^p directly, in a type wide enough that no
// value of the element type overflows or underflows it for the p the runtime
// allows there (runtime/lp_pool.cpp: unscaled_lp_is_exact): float64 for
// float32 and bfloat16 (p <= 6), float32 for float16 (p <= 5).
inline Halide::Type unscaled_lp_sum_type(const Halide::Type& element) {
  return element.is_float() && element.bits() == 16 ? Halide::Float(32) : Halide::Float(64);
}

// t^p for an integer p >= 1 known only at run time. The common p get plain
// products, which a schedule's specialize(p == k) reduces the select to;
// others call pow (exact to an ulp or so for integer exponents).
inline Halide::Expr integer_power(const Halide::Expr& t, const Halide::Expr& p) {
  Halide::Expr t2 = t * t;
  return Halide::select(p == 1, t, p == 2, t2, p == 3, t2 * t, p == 4, t2 * t2,
                        Halide::pow(t, Halide::cast(t.type(), p)));
}

// s^(1/p), the inverse of integer_power.
inline Halide::Expr integer_root(const Halide::Expr& s, const Halide::Expr& p) {
  return Halide::select(p == 1, s, p == 2, Halide::sqrt(s), Halide::pow(s, 1 / Halide::cast(s.type(), p)));
}

// The p that get loop nests of their own (one copy of the loop nest each;
// ONNX defaults to p = 2).
constexpr int kFixedPowers[] = {1, 2};

// A scale for magnitudes up to `largest`: the largest itself when it is a
// positive finite number, else 1 (all zeros: nothing to scale; inf or NaN:
// the unscaled sum already gives inf or NaN).
inline Halide::Expr magnitude_scale(const Halide::Expr& largest) {
  const Halide::Type t = largest.type();
  return Halide::select(largest > Halide::Internal::make_zero(t) && largest < t.max(), largest,
                        Halide::Internal::make_one(t));
}

}  // namespace onnxpool::gen
