// When a 2D pool runs on the flat-plane kernels (generators/flat_plane_pool.h):
// "same" windows (stride 1, dilation 1, output plane = input plane) on
// narrow planes small enough that a plane's first pass stays in cache, and
// enough planes to give every thread its share.
#pragma once

#include "kernel_launch.h"
#include "window_geometry.h"

namespace onnxpool::detail {

// Which planes are narrow and small enough: runtime_knobs.h's
// flat_plane_width_limit and max_flat_plane_area, with their measurements.
bool flat_plane_suits(const WindowGeometry& g);

// Switches `call` (a 2D MaxPool without Indices, or an AveragePool) to its
// flat-plane kernel, with the scalars that kernel takes, when the geometry
// suits it and the build has that kernel for X's device; otherwise leaves
// `call` as it is.
void prefer_flat_plane_kernel(KernelCall* call);

}  // namespace onnxpool::detail
