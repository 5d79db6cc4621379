// Windowed pools whose single window covers the whole plane (ONNX exports of
// older ResNet, Inception and MobileNet end in AveragePool 7x7 on 7x7 maps,
// SqueezeNet in 13x13 on 13x13): they compute what the global pool computes,
// so they take its kernels, which reduce a plane as one flat run instead of
// stepping a masked vector per output row (docs/design-decisions.md,
// "Whole-plane windows").
#pragma once

#include "onnxpool/attributes.h"
#include "plan/window_geometry.h"

namespace onnxpool::detail {

// The global operator a windowed one equals when its window covers the
// plane: GlobalMaxPool for MaxPool, and so on.
PoolOp global_pool_of(PoolOp windowed);

// Why the window along axis `a` does not cover it in one position: one
// output whose window, undilated, reaches from the axis's first element to
// its last, and, when AveragePool counts its pads, has none. nullptr: it does.
const char* axis_not_covered(const AxisWindow& a, bool count_include_pad);

// Why this windowed call is not its global pool, or nullptr: every axis has
// one output whose window, undilated, reaches from the plane's first
// element to its last; MaxPool asks no Indices; AveragePool counting its
// pads has none (its divisor would be the padded window, not the plane).
const char* whole_plane_declines(PoolOp op, bool with_indices, bool count_include_pad, const WindowGeometry& g);

}  // namespace onnxpool::detail
