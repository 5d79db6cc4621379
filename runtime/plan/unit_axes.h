// Leading spatial axes whose window is one tap, stride 1 and unpadded (MViT's
// 1x3x3 MaxPool over 8 frames, k1xN 2D windows): every input position along
// them is an output position of its own, so they fold into the planes and
// the call runs the kernels of the lower rank, with the special families the
// 3D kernels lack (docs/design-decisions.md, "Whole-plane windows").
#pragma once

#include "plan/window_geometry.h"

namespace onnxpool::detail {

// How many leading axes of g fold: the longest prefix of such axes, keeping
// at least one axis. MaxPool's column-major Indices (storage_order = 1)
// count the first axis fastest, so they fold none; the row-major ones are
// the same numbers either way.
int unit_leading_axes(const WindowGeometry& g, bool column_major_indices);

// Folds those axes into g's channels and returns how many it folded.
int fold_unit_leading_axes(bool column_major_indices, WindowGeometry* g);

}  // namespace onnxpool::detail
