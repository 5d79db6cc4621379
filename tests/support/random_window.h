// Random windowed pooling nodes: the attributes every windowed operator
// shares (kernel_shape, strides, dilations, pads or auto_pad, ceil_mode) and
// an input shape that holds at least one window. MaxPool, AveragePool and
// LpPool cases all start from one and add their own attributes.
#pragma once

#include <cstdint>
#include <vector>

#include "reference/pool_geometry.h"
#include "support/random.h"

namespace onnxpool_test {

struct RandomWindow {
  PoolSpec spec;                     // storage_order, count_include_pad and p at their defaults
  std::vector<int64_t> input_shape;  // [N, C, spatial...], N and C in 1..3
};

// Aims at what breaks kernels: windows that hang into or lie entirely in the
// padding, dilations, asymmetric pads, every auto_pad, default-valued lists
// both given and left out, and last-axis extents up to 70 (1D), 40 (2D) or
// 20 (3D), so vector bodies and tails of every width are reached.
// `spatial_rank` is 1..3. `oversized_pads` is the chance that the pads may
// reach past the window's extent, so that some windows hold only padding.
RandomWindow random_window(Random& random, int spatial_rank, double oversized_pads = 0.1);

}  // namespace onnxpool_test
