// One element of a host tensor of any element type, read or written as a
// double: what the runtime's own loops (the fills of windows without taps,
// the combining of large planes' partial results) need, in one place.
#pragma once

#include <cstdint>

#include "onnxpool/tensor.h"

namespace onnxpool::detail {

// Exact for every element type but int64 past 2^53.
double load_element(const void* data, ElementType type, int64_t index);

// Floats round to nearest even (float16 and bfloat16 through float32; NaN
// stays NaN); integers are clamped to their range, NaN stores 0.
void store_element(void* data, ElementType type, int64_t index, double value);

}  // namespace onnxpool::detail
