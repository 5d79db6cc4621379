#include "plan/halving.h"

namespace onnxpool::detail {

const char* halving_declines(const WindowGeometry& g) {
  if (g.axes.size() != 2) return "not a 2D window";
  for (const AxisWindow& a : g.axes) {
    if (a.kernel != 2 || a.stride != 2 || a.dilation != 1) return "not a 2x2 stride-2 undilated window";
    if (a.pad_begin != 0 || a.output < 1 || 2 * a.output > a.input) return "windows reaching past the input";
  }
  return nullptr;
}

}  // namespace onnxpool::detail
