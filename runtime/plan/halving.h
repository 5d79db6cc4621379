// When a 2D MaxPool (without Indices) or AveragePool runs on the halving
// kernels (generators/halving_pool.h):
// 2x2 windows with stride 2, no dilation and no begin padding, and an
// output no larger than half the input on both axes, so that every window
// lies inside the input (an end pad or ceil_mode that adds a window hanging
// over the edge sends the call to the separable kernel).
#pragma once

#include "kernel_launch.h"
#include "window_geometry.h"

namespace onnxpool::detail {

bool halving_suits(const WindowGeometry& g);

// Switches `call` (a 2D MaxPool without Indices, or an AveragePool) to its halving kernel when
// the geometry suits it and the build has that kernel for X's device;
// otherwise leaves `call` as it is.
void prefer_halving_kernel(KernelCall* call);

}  // namespace onnxpool::detail
