// When GlobalAveragePool takes the long-plane kernels: 32 partial sums per
// plane (kernel_matrix.cmake's global_partials), so the adds run as several
// independent vector chains instead of one that waits on the adder's
// latency. Their tail, the plane's last size mod 32 elements, is added one
// at a time, so they win only where the chains save more than that costs
// (docs/design-decisions.md, "Long planes").
#pragma once

#include <cstdint>

#include "execute/kernel_launch.h"
#include "plan/window_geometry.h"

namespace onnxpool::detail {

// Partial sums per plane of the long-plane kernels.
constexpr int64_t kLongPlanePartials = 32;

// Why g's planes do not suit the long-plane kernels under `settings`, or
// nullptr; `lanes`: partial sums per plane of the kernel they would replace.
const char* long_planes_declines(const WindowGeometry& g, int64_t lanes, const LaunchSettings& settings);

}  // namespace onnxpool::detail
