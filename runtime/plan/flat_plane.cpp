#include "plan/flat_plane.h"

#include "plan/plan.h"

namespace onnxpool::detail {

const char* flat_plane_declines(const WindowGeometry& g, const LaunchSettings& settings) {
  if (g.axes.size() != 2) return "not a 2D window";
  for (const AxisWindow& a : g.axes) {
    // input >= kernel: the rows whose windows cross the top or bottom edge
    // are distinct from the interior ones, which are not empty.
    if (a.stride != 1 || a.dilation != 1 || a.output != a.input) return "not a stride-1 window with a 'same' output";
    if (a.input < a.kernel) return "a plane axis shorter than the window";
  }
  if (g.axes[1].input >= settings.knobs->flat_plane_width_limit) return "rows as wide as flat_plane_width_limit";
  if (g.input_plane_size() > settings.knobs->max_flat_plane_area) return "a plane larger than max_flat_plane_area";
  if (g.planes() < windowed_tasks_wanted(g, settings)) return "fewer planes than parallel tasks wanted";
  return nullptr;
}

bool flat_plane_suits(const WindowGeometry& g) {
  return flat_plane_declines(g, PlanContext::current().launch_settings()) == nullptr;
}

}  // namespace onnxpool::detail
