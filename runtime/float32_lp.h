// LpPool's and GlobalLpPool's float32 sums: twice the vector lanes of the
// float64 sums that float32 and bfloat16 inputs otherwise need, for inputs a
// range check clears first (generators/lp_range_generator.cpp).
#pragma once

#include <cstdint>

#include "onnxpool/attributes.h"
#include "onnxpool/status.h"
#include "onnxpool/tensor.h"

namespace onnxpool::detail {

// Bounds on |x| within which every |x|^p is a normal float32 of at least
// 2^-100 and a sum of `taps` of them stays below half the largest float32:
// then a float32 sum loses nothing to underflow (a window's sum is 0, or at
// least 2^-100, so flushed terms would change it by under taps * 2^-26 of
// it; none are flushed) and cannot overflow. `lowest` is rounded up and
// `highest` down. Empty (lowest > highest) for p too large for any.
struct Float32LpRange {
  float lowest = 0.0f;
  float highest = 0.0f;
};
Float32LpRange float32_lp_range(int64_t p, double taps);

enum class Float32LpOutcome {
  kRan,          // Y holds the result
  kOutOfRange,   // some nonzero |x| lies outside the range: Y untouched
  kUnavailable,  // no float32 kernels for this type or backend: Y untouched
};

// The range check over X, then, when it passes, the float32 kernel of `op`
// (kLpPool or kGlobalLpPool) into Y. A failed Status only for errors an
// exact kernel would report too.
Status run_float32_lp(PoolOp op, const PoolAttributes& attributes, const TensorView& X, const TensorView& Y,
                      Float32LpOutcome* outcome);

}  // namespace onnxpool::detail
