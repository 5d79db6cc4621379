// When a 2D pool runs on the flat-plane kernels (generators/flat_plane_pool.h):
// "same" windows (stride 1, dilation 1, output plane = input plane) on
// narrow planes small enough that a plane's first pass stays in cache, and
// enough planes to give every thread its share.
#pragma once

#include "kernel_launch.h"
#include "window_geometry.h"

namespace onnxpool::detail {

// Planes narrower than this: the flat kernels cost the same per output at
// any width (float32 MaxPool 3x3/s1/p1, 1 thread, AVX-512: 0.32-0.34 ns),
// while the separable ones pay per row and win only on wide rows (0.26 ns
// at 256 wide, 0.30 at 128, 0.33 at 64 (a tie), 0.41 at 56, 0.50 at 28,
// 1.6 at 14; AveragePool alike).
constexpr int64_t kFlatPlaneWidthLimit = 64;
// Planes of at most this many elements: a plane's first pass (one
// accumulator per element) stays in L2.
constexpr int64_t kMaxFlatPlaneArea = 64 * 1024;

bool flat_plane_suits(const WindowGeometry& g);

// Switches `call` (a 2D MaxPool without Indices, or an AveragePool) to its
// flat-plane kernel, with the scalars that kernel takes, when the geometry
// suits it and the build has that kernel for X's device; otherwise leaves
// `call` as it is.
void prefer_flat_plane_kernel(KernelCall* call);

}  // namespace onnxpool::detail
