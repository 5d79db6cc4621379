// What the tolerances and the value generators need to know about the four
// float element types, from the format definitions (not from the library).
#pragma once

#include "reference/host_tensor.h"

namespace onnxpool_test {

// Every float element type the pooling operators take.
const std::vector<ElementType>& float_types();

// The binary exponents a finite non-zero value of `type` spans: from its
// smallest subnormal, 2^smallest_exponent, to its largest finite value, just
// under 2^(largest_exponent + 1).
int smallest_exponent(ElementType type);
int largest_exponent(ElementType type);
double smallest_subnormal(ElementType type);
double largest_finite(ElementType type);

// `value` rounded once to `type` (ties to even; past the largest finite
// value by half a unit or more: infinity), as a double.
double round_to(ElementType type, double value);

// Unit roundoff (half an ulp at 1) of the type the operators accumulate a
// 16-bit float's sums in (float32) and of float32 and float64 themselves.
double accumulator_unit_roundoff(ElementType type);

}  // namespace onnxpool_test
