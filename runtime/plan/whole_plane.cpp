#include "plan/whole_plane.h"

namespace onnxpool::detail {

PoolOp global_pool_of(PoolOp windowed) {
  switch (windowed) {
    case PoolOp::kMaxPool: return PoolOp::kGlobalMaxPool;
    case PoolOp::kAveragePool: return PoolOp::kGlobalAveragePool;
    case PoolOp::kLpPool: return PoolOp::kGlobalLpPool;
    default: return windowed;
  }
}

const char* axis_not_covered(const AxisWindow& a, bool count_include_pad) {
  if (a.output != 1) return "more than one output along an axis";
  if (a.dilation != 1 && a.kernel != 1) return "a dilated window";
  // The window's taps are [-pad_begin, kernel - 1 - pad_begin].
  if (a.pad_begin < 0 || a.kernel - 1 - a.pad_begin < a.input - 1) return "the window leaves part of the plane out";
  if (count_include_pad && (a.pad_begin != 0 || a.kernel != a.input)) {
    return "AveragePool counts its pads (count_include_pad = 1)";
  }
  return nullptr;
}

const char* whole_plane_declines(PoolOp op, bool with_indices, bool count_include_pad, const WindowGeometry& g) {
  if (global_pool_of(op) == op) return "a global operator already";
  if (with_indices) return "MaxPool asks for Indices (the global kernels have none)";
  for (const AxisWindow& a : g.axes) {
    if (const char* reason = axis_not_covered(a, count_include_pad)) return reason;
  }
  return nullptr;
}

}  // namespace onnxpool::detail
