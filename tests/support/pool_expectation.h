// What the library must produce for a PoolCase, worked out with the reference.
//
// GlobalMaxPool must match the reference exactly (any NaN equals any NaN).
// The sum-based operators are compared with the exact float64 result: an
// element may differ from it by
//
//   relative * |exact|                        the type's tolerance: 1e-5 for
//                                             float32 and float64, 1e-2 for
//                                             float16 and bfloat16
// + (taps + 1) * u * magnitude                what any summation order of taps
//                                             terms in the accumulator (unit
//                                             roundoff u: float32 for the 16-bit
//                                             types) may lose: magnitude is the
//                                             mean of |x| over the window for
//                                             AveragePool (so a mean that cancels
//                                             to near zero keeps a fair floor),
//                                             the result itself for LpPool (its
//                                             terms never cancel)
// + smallest_subnormal / 2                    rounding a subnormal result
//   (float64: a whole smallest_subnormal,     (the float64 reference has
//   see allowed_error)                         rounded its own result too)
#pragma once

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "reference/host_tensor.h"
#include "support/pool_cases.h"

namespace onnxpool_test {

struct PoolExpectation {
  bool exact = false;  // values has X's type and must match bit for bit
  HostTensor values;   // otherwise the float64 exact result
  HostTensor allowed;  // float64: the absolute error allowed per element
};

PoolExpectation expected_pool_result(const PoolCase& c);

// The allowed absolute error described above, for one element.
double allowed_error(ElementType type, double exact, double magnitude, int64_t taps);

// For tests that work out the exact results themselves: `actual` (any float
// type) holds, in order, acceptable results (approx_compare.h) for `exact`,
// each allowed allowed_error(type, e, |e|, taps): right for LpPool, and for
// averages whose terms do not cancel.
testing::AssertionResult close_to(const std::vector<double>& exact, int64_t taps, const HostTensor& actual);

// Relative tolerance of `type`: 1e-5 (float32, float64) or 1e-2 (16-bit).
double relative_tolerance(ElementType type);

}  // namespace onnxpool_test
