#include "flat_plane.h"

#include "kernel_registry.h"
#include "runtime_knobs.h"

namespace onnxpool::detail {

bool flat_plane_suits(const WindowGeometry& g) {
  if (g.axes.size() != 2 || g.input_plane_size() > runtime_knobs().max_flat_plane_area) return false;
  if (g.axes[1].input >= runtime_knobs().flat_plane_width_limit) return false;
  for (const AxisWindow& a : g.axes) {
    // input >= kernel: the rows whose windows cross the top or bottom edge
    // are distinct from the interior ones, which are not empty.
    if (a.stride != 1 || a.dilation != 1 || a.output != a.input || a.input < a.kernel) return false;
  }
  // The flat kernels split the work by planes only.
  return g.planes() >= windowed_tasks_wanted(g);
}

void prefer_flat_plane_kernel(KernelCall* call) {
  const WindowGeometry& g = *call->geometry;
  if (!flat_plane_suits(g) || !switch_to_variant(call, KernelVariant::kFlatPlane)) return;
  call->scalars.push_back(ScalarArg::int32("width", static_cast<int32_t>(g.axes[1].input)));
  call->scalars.push_back(ScalarArg::int32("height", static_cast<int32_t>(g.axes[0].input)));
}

}  // namespace onnxpool::detail
