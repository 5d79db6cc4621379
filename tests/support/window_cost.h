// What a windowed call may cost, counted in the window taps its kernels
// evaluate (runtime/execute/window_segments.h says how the runtime keeps to it).
#pragma once

#include <cstdint>

#include "reference/pool_geometry.h"

namespace onnxpool_test {

// How many taps of output `o`'s window on `axis` lie in [lo, hi), in closed
// form (kernel_shape may be huge).
int64_t taps_within(const WindowGeometry& g, size_t axis, int64_t o, __int128 lo, __int128 hi);

// 4^rank x planes x the product over the axes of (the sum over the axis's
// outputs of (taps inside X + 1)): per axis, each output may cost four times
// its taps inside X, plus one, whatever kernel_shape and pads say.
double taps_inside_bound(const WindowGeometry& g, int64_t planes);

}  // namespace onnxpool_test
