#include "plan/long_planes.h"

namespace onnxpool::detail {
namespace {

// Dependent steps of one plane's sums in `partials` partials of `lanes`
// lanes each: a vector step per block, one and a half per tail element (a
// scalar load and add), one per extra halving of the partials. Fitted on
// the AVX2 and SSE4.1 kernels of an AMD EPYC Zen 3 (docs/design-decisions.md,
// "Long planes").
double chain_steps(int64_t size, int64_t partials, int64_t lanes) {
  int64_t halvings = 0;
  for (int64_t p = partials; p > lanes; p /= 2) ++halvings;
  return static_cast<double>(size / partials) + 1.5 * static_cast<double>(size % partials) +
         static_cast<double>(halvings);
}

}  // namespace

const char* long_planes_declines(const WindowGeometry& g, int64_t lanes, const LaunchSettings& settings) {
  const int64_t size = g.input_plane_size();
  if (size < settings.knobs->long_plane_size) return "planes shorter than long_plane_size";
  if (lanes >= kLongPlanePartials) return "the kernel it would replace has as many partial sums";
  if (chain_steps(size, kLongPlanePartials, lanes) >= chain_steps(size, lanes, lanes)) {
    return "the plane's tail past whole blocks of 32 costs more than the chains save";
  }
  return nullptr;
}

}  // namespace onnxpool::detail
