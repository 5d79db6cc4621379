// When a call takes the flat-plane kernels (generators/flat_plane_pool.h):
// 2D "same" windows on planes narrow and small enough, with planes enough
// to give every thread its share (they split the work by planes only).
#pragma once

#include "execute/kernel_launch.h"
#include "plan/window_geometry.h"

namespace onnxpool::detail {

// Why g does not suit the flat-plane kernels under `settings`, or nullptr.
const char* flat_plane_declines(const WindowGeometry& g, const LaunchSettings& settings);

// The same under the process's settings now.
bool flat_plane_suits(const WindowGeometry& g);

}  // namespace onnxpool::detail
