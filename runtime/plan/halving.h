// When a call takes the halving kernels (generators/halving_pool.h): 2D
// 2x2 stride-2 windows that lie inside the input.
#pragma once

#include "plan/window_geometry.h"

namespace onnxpool::detail {

// Why g does not suit the halving kernels, or nullptr.
const char* halving_declines(const WindowGeometry& g);

inline bool halving_suits(const WindowGeometry& g) { return halving_declines(g) == nullptr; }

}  // namespace onnxpool::detail
