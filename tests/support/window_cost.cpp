#include "support/window_cost.h"

#include <algorithm>

namespace onnxpool_test {

int64_t taps_within(const WindowGeometry& g, size_t axis, int64_t o, __int128 lo, __int128 hi) {
  const __int128 start = __int128{o} * g.strides[axis] - g.pad_begin[axis], d = g.dilations[axis];
  const __int128 first = lo - start <= 0 ? 0 : (lo - start + d - 1) / d;
  const __int128 last = hi - 1 - start < 0 ? -1 : std::min<__int128>(g.kernel[axis] - 1, (hi - 1 - start) / d);
  return static_cast<int64_t>(std::max<__int128>(0, last - first + 1));
}

double taps_inside_bound(const WindowGeometry& g, int64_t planes) {
  // An empty Y costs nothing, and one axis of it may still be past 2^32 long:
  // the sum below walks each axis's outputs.
  if (planes <= 0) return 0;
  for (size_t a = 0; a < g.rank(); ++a) {
    if (g.output[a] <= 0) return 0;
  }
  double bound = static_cast<double>(planes);
  for (size_t a = 0; a < g.rank(); ++a) {
    double axis = 0;
    for (int64_t o = 0; o < g.output[a]; ++o) axis += 1.0 + static_cast<double>(taps_within(g, a, o, 0, g.input[a]));
    bound *= 4.0 * axis;
  }
  return bound;
}

}  // namespace onnxpool_test
