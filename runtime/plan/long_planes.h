// When GlobalAveragePool takes the long-plane kernels: 32 partial sums per
// plane (kernel_matrix.cmake's global_partials), so the adds run as several
// independent vector chains instead of one that waits on the adder's
// latency. Their tail, the plane's last size mod 32 elements, is added one
// at a time, so they win only where the chains save more than that costs
// (docs/design-decisions.md, "Long planes").
#pragma once

#include <cstddef>
#include <cstdint>

#include "execute/kernel_launch.h"
#include "plan/window_geometry.h"

namespace onnxpool::detail {

// Partial sums per plane of the long-plane kernels as kernel_matrix.cmake
// generates them, where the tuning tables give them no other.
constexpr int64_t kLongPlanePartials = 32;

// The `global_partials` knob the tuning tables gave `kernel` on `target`
// (KernelEntry::knobs, "name=value ..."), or `otherwise`: so the step model
// below counts the partials each kernel was built with, tuned or not.
int64_t tuned_global_partials(const KernelEntry& kernel, size_t target, int64_t otherwise);

// Partial sums per plane of the long-plane kernel and of the kernel it
// would replace, and the lanes of the target's vector.
struct PlaneSums {
  int64_t long_kernel = kLongPlanePartials;
  int64_t plain_kernel = 1;
  int64_t lanes = 1;
};

// Why g's planes do not suit the long-plane kernels under `settings`, or nullptr.
const char* long_planes_declines(const WindowGeometry& g, const PlaneSums& sums, const LaunchSettings& settings);

}  // namespace onnxpool::detail
