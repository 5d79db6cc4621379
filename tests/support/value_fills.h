// Random input values for the pooling tests. Each fill aims at something that
// breaks kernels; the MaxPool ones at the order of values, the sum ones at
// accumulation, scaling, overflow and underflow.
#pragma once

#include "reference/host_tensor.h"
#include "support/random.h"

namespace onnxpool_test {

// ---- For the max operators ----

// Many ties (small integers), and for the float types some NaN and
// infinities; never -0 (whose order against +0 the reference does not model).
void fill_with_ties(Random& random, HostTensor* X, double special_probability);

// Any bit pattern (subnormals, huge values, NaN) except -0.
void fill_with_any_bits(Random& random, HostTensor* X);

// Strictly below zero (uint8: above zero), so a padded zero leaking into a
// max would show.
void fill_away_from_zero(Random& random, HostTensor* X);

// For GlobalMaxPool: one of the fills above, chosen at random, or ties with
// infinities of both signs but no NaN.
void fill_for_global_max(Random& random, HostTensor* X);

// ---- For AveragePool, LpPool and their global forms (float types) ----

enum class SumPool { kAverage, kLp };

// One of: small integers (exact sums, zeros, sign changes); reals in [-1, 1];
// mostly zeros of either sign; either of the first two with NaN and
// infinities, or infinities of one sign, sprinkled in; or a band of
// magnitudes 2^(e-w) .. 2^(e+w) around a random e at the bottom of the type's
// range (subnormals), at its top, or anywhere in between. For LpPool
// the band reaches the largest finite value (the operator promises no
// overflow or underflow in between); for AveragePool it stays 2^12 below it
// when the sum is accumulated in X's own type, which may overflow.
//
// Returns e for a band, else 0: the reference works on X * 2^-e, so that
// double's range holds every |x|^p, and its result is scaled back.
int fill_for_sum_pool(Random& random, HostTensor* X, SumPool op);

// For float16 and bfloat16 X whose planes (everything after N and C) have an
// even size n up to 4096: values 1 + f * 2^-m, f in 0..2 and m the type's
// mantissa bits, the second half of each plane mirroring the first (2 - f),
// so that every plane sums to exactly n * (1 + 2^-m): exactly in float32
// whatever the order, while a 16-bit accumulator loses the small parts once
// the sum passes 2^(m+1). Its mean 1 + 2^-m and sum are representable.
void fill_accumulation_probe(Random& random, HostTensor* X);
double accumulation_probe_step(ElementType type);  // 2^-m

// A value drawn as in the band above, finite in `type`.
double band_value(Random& random, ElementType type, int low_exponent, int high_exponent);

}  // namespace onnxpool_test
