// Comparison of a sum-based operator's output with the exact result.
#pragma once

#include <gtest/gtest.h>

#include "reference/host_tensor.h"

namespace onnxpool_test {

// True when `actual` (a value of `type`) is an acceptable result for the
// float64 `exact` value with absolute tolerance `allowed`:
// - NaN exactly where the exact result is NaN;
// - an infinite exact result exactly (same sign);
// - a finite one within `allowed`; or infinity of its sign where the exact
//   value, moved `allowed` away from zero, rounds to infinity in `type` (a
//   result past the largest finite value overflows).
bool acceptable(ElementType type, double exact, double allowed, double actual);

// `actual` has `exact`'s shape and X's type `type`, and every element is
// acceptable (above). `exact` and `allowed` are float64. On failure the
// message names `what` and lists the first mismatches with coordinates.
testing::AssertionResult tensors_close(const char* what, ElementType type, const HostTensor& exact,
                                       const HostTensor& allowed, const HostTensor& actual);

}  // namespace onnxpool_test
