#include "halving.h"

#include "kernel_registry.h"

namespace onnxpool::detail {

bool halving_suits(const WindowGeometry& g) {
  if (g.axes.size() != 2) return false;
  for (const AxisWindow& a : g.axes) {
    if (a.kernel != 2 || a.stride != 2 || a.dilation != 1 || a.pad_begin != 0) return false;
    if (a.output < 1 || 2 * a.output > a.input) return false;
  }
  return true;
}

void prefer_halving_kernel(KernelCall* call) {
  if (halving_suits(*call->geometry)) switch_to_variant(call, KernelVariant::kHalving);
}

}  // namespace onnxpool::detail
