// Windowed pools whose window covers the trailing spatial axes whole but not
// the leading ones (S3D's and I3D's AveragePool 2x7x7 over 16x7x7 maps: one
// output per 7x7 plane, 15 along time). The windowed kernels step a masked
// vector per output there, one element wide; instead the global pool reduces
// each trailing plane once into scratch, and a windowed kernel of the
// leading axes' rank pools those values (docs/design-decisions.md,
// "Whole-plane windows").
#pragma once

#include <cstddef>

#include "onnxpool/attributes.h"
#include "onnxpool/tensor.h"
#include "plan/window_geometry.h"

namespace onnxpool::detail {

// Why this call does not reduce covered trailing axes first, or nullptr;
// then `*leading_axes` is how many axes stay windowed (at least one). Exact
// for MaxPool (without Indices) in any type, and for AveragePool in float32
// and float64: a mean of means is the mean when each plane has the same
// count, which holds since the covered axes have no pads AveragePool counts.
// Half types would round twice; LpPool would raise rounded norms to the p.
const char* covered_axes_declines(PoolOp op, ElementType type, bool with_indices, bool count_include_pad,
                                  const WindowGeometry& g, size_t* leading_axes);

// The windows of the first `leading_axes` axes alone, over the reduced
// values: the plane of the second step.
WindowGeometry leading_axes_geometry(const WindowGeometry& g, size_t leading_axes);

}  // namespace onnxpool::detail
