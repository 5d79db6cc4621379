// The smallest and largest magnitude in a run of float32 or bfloat16 values,
// as float32 bits: what the float32 Lp sums' outputs are judged by
// (float32_lp.h).
#pragma once

#include <cstdint>

#include "onnxpool/tensor.h"

namespace onnxpool::detail {

// Magnitudes as float32 bits (sign cleared; a bfloat16 is the high half of a
// float32's bits): ordered like the values, with inf and NaN above every
// finite one.
struct MagnitudeRange {
  uint32_t smallest = 0xFFFFFFFFu;
  uint32_t largest = 0;
};

// Over elements [first, first + count) of a float32 or bfloat16 host tensor.
MagnitudeRange magnitudes(const TensorView& t, int64_t first, int64_t count);

// Over its first `count` elements, shared among the library's threads.
MagnitudeRange magnitudes_in_parallel(const TensorView& t, int64_t count);

}  // namespace onnxpool::detail
