// LpPool's and GlobalLpPool's float32 sums: twice the vector lanes of the
// float64 sums that float32 and bfloat16 inputs otherwise need, for inputs a
// range check clears first (generators/lp_range_generator.cpp).
#pragma once

#include <cstdint>

#include "onnxpool/attributes.h"
#include "onnxpool/status.h"
#include "onnxpool/tensor.h"
#include "kernel_launch.h"
#include "window_geometry.h"

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

// The call of an Lp kernel of any algorithm: X into Y with p.
KernelCall lp_kernel_call(const KernelEntry& kernel, const WindowGeometry& geometry, const TensorView& X,
                          const TensorView& Y, int64_t p);

// The range check over X, then, when it passes, the float32 kernel of `op`
// (kLpPool or kGlobalLpPool) into Y. The caller has validated the call
// (check_operator_call), which gave `geometry`. A failed Status only for
// errors an exact kernel would report too.
Status run_float32_lp(PoolOp op, int64_t p, const WindowGeometry& geometry, const TensorView& X,
                      const TensorView& Y, Float32LpOutcome* outcome);

}  // namespace onnxpool::detail
