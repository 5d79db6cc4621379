// LpPool's and GlobalLpPool's float32 sums: twice the vector lanes of the
// float64 sums that float32 and bfloat16 inputs otherwise need. They run
// first, on every plane; the outputs then show which planes they may have
// got wrong (an infinite or NaN output, or one small enough that terms lost
// to underflow could matter), and only those planes are checked and, where
// needed, recomputed by an exact kernel.
//
// Why checked afterwards rather than before: the range check of the whole
// input (generators/lp_range_generator.cpp, now run only on the planes an
// output flags) was a second pass over X and a second launch on every call,
// where a pass over Y's outputs is a fraction of X's size
// (docs/design-decisions.md, "Lp: float32 sums, checked after they run").
#pragma once

#include <cstdint>

#include "onnxpool/attributes.h"
#include "onnxpool/status.h"
#include "onnxpool/tensor.h"
#include "execute/kernel_launch.h"
#include "plan/window_geometry.h"

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

// The smallest output the float32 sums are trusted for without looking at
// the inputs: a term |x|^p below float32's normal range loses less than
// 2^-126 to underflow, so an output whose p-th power (the sum of at most
// `taps` terms) is at least taps * 2^-102 has lost less than 2^-24 of it.
// Rounded up. Smaller outputs (zero among them) send their plane to the
// range check.
float smallest_trusted_float32_lp(int64_t p, double taps);

enum class Float32LpOutcome {
  kRan,                // Y holds the result, every plane from the float32 sums
  kRanWithExactPlanes,  // Y holds the result; some planes came from `exact`
  kUnavailable,        // no float32 kernels for this type or backend: Y untouched
};

// The kernels' argument p for the attribute p.
ScalarArg lp_power_argument(int64_t p);

// The call of an Lp kernel of any algorithm: X into Y with p.
KernelCall lp_kernel_call(const KernelEntry& kernel, const WindowGeometry& geometry, const TensorView& X,
                          const TensorView& Y, int64_t p);

// Why the float32 sums cannot serve `op` with this p and geometry (whatever
// the input), or nullptr. The planner also asks that the build has the sum
// and range-check kernels for the call's target and that X is a host tensor.
const char* float32_lp_declines(PoolOp op, int64_t p, const WindowGeometry& geometry);

// The kernels a float32-first Lp call runs, as the planner chose them.
struct Float32LpKernels {
  const KernelEntry* sum = nullptr;          // the float32 sums
  const KernelEntry* range_check = nullptr;  // per plane: an |x| outside the trusted range
  const KernelEntry* exact = nullptr;        // an exact kernel of the same operator, type and rank
  int target = -1;
  LaunchSettings settings;
};

// The float32 sums over X into Y, then the exact kernel over the planes whose
// float32 outputs cannot be trusted. The caller has validated the call, which
// gave `geometry`. A failed Status only for errors an exact kernel would
// report too.
Status run_float32_lp(const Float32LpKernels& kernels, int64_t p, const WindowGeometry& geometry, const TensorView& X,
                      const TensorView& Y, Float32LpOutcome* outcome);

}  // namespace onnxpool::detail
