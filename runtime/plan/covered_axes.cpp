#include "plan/covered_axes.h"

#include "plan/whole_plane.h"

namespace onnxpool::detail {

const char* covered_axes_declines(PoolOp op, ElementType type, bool with_indices, bool count_include_pad,
                                  const WindowGeometry& g, size_t* leading_axes) {
  if (op == PoolOp::kLpPool) return "LpPool (the second step would raise rounded norms to the p)";
  if (op != PoolOp::kMaxPool && op != PoolOp::kAveragePool) return "a global operator already";
  if (with_indices) return "MaxPool asks for Indices (the global kernels have none)";
  if (op == PoolOp::kAveragePool && type != ElementType::kFloat32 && type != ElementType::kFloat64) {
    return "AveragePool in a half type (the means would be rounded between the steps)";
  }
  size_t leading = g.axes.size();
  while (leading > 0 && axis_not_covered(g.axes[leading - 1], count_include_pad) == nullptr) --leading;
  if (leading == g.axes.size()) return "the last axis's window does not cover it";
  if (leading == 0) return "the window covers the whole plane";
  *leading_axes = leading;
  return nullptr;
}

WindowGeometry leading_axes_geometry(const WindowGeometry& g, size_t leading_axes) {
  WindowGeometry leading;
  leading.batch = g.batch;
  leading.channels = g.channels;
  leading.output_shape = {g.batch, g.channels};
  for (size_t i = 0; i < leading_axes; ++i) {
    leading.axes.push_back(g.axes[i]);
    leading.output_shape.push_back(g.axes[i].output);
  }
  return leading;
}

}  // namespace onnxpool::detail
