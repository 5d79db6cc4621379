#include "plan/unit_axes.h"

namespace onnxpool::detail {
namespace {

bool one_output_per_input(const AxisWindow& a) {
  return a.kernel == 1 && a.stride == 1 && a.pad_begin == 0 && a.pad_end == 0 && a.output == a.input && a.input > 0;
}

}  // namespace

int unit_leading_axes(const WindowGeometry& g, bool column_major_indices) {
  if (column_major_indices) return 0;
  size_t folded = 0;
  while (folded + 1 < g.axes.size() && one_output_per_input(g.axes[folded])) ++folded;
  return static_cast<int>(folded);
}

int fold_unit_leading_axes(bool column_major_indices, WindowGeometry* g) {
  const size_t rank = g->axes.size();
  const size_t folded = static_cast<size_t>(unit_leading_axes(*g, column_major_indices));
  if (folded == 0) return 0;
  WindowGeometry kept;
  kept.batch = g->batch;
  kept.channels = g->channels;
  for (size_t i = 0; i < folded; ++i) kept.channels *= g->axes[i].input;
  kept.output_shape = {kept.batch, kept.channels};
  for (size_t i = folded; i < rank; ++i) {
    kept.axes.push_back(g->axes[i]);
    kept.output_shape.push_back(g->axes[i].output);
  }
  // ONNX's pads, begin then end, of the axes kept.
  if (g->onnx_pads.size() == 2 * rank) {
    for (size_t i = folded; i < rank; ++i) kept.onnx_pads.push_back(g->onnx_pads[i]);
    for (size_t i = folded; i < rank; ++i) kept.onnx_pads.push_back(g->onnx_pads[rank + i]);
  }
  *g = kept;
  return static_cast<int>(folded);
}

}  // namespace onnxpool::detail
