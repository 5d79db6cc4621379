#include "plan/long_planes.h"

#include <cstdlib>
#include <cstring>

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

int64_t tuned_global_partials(const KernelEntry& kernel, size_t target, int64_t otherwise) {
  const char* knobs = target < kMaxTargets ? kernel.knobs[target] : nullptr;
  if (knobs == nullptr) return otherwise;
  constexpr char kName[] = "global_partials=";
  for (const char* at = std::strstr(knobs, kName); at != nullptr; at = std::strstr(at + 1, kName)) {
    if (at != knobs && at[-1] != ' ') continue;  // the end of another knob's name
    const long long value = std::strtoll(at + sizeof(kName) - 1, nullptr, 10);
    return value > 0 ? value : otherwise;  // 0: the family's choice
  }
  return otherwise;
}

const char* long_planes_declines(const WindowGeometry& g, const PlaneSums& sums, const LaunchSettings& settings) {
  const int64_t size = g.input_plane_size();
  if (size < settings.knobs->long_plane_size) return "planes shorter than long_plane_size";
  if (sums.plain_kernel >= sums.long_kernel) return "the kernel it would replace has as many partial sums";
  if (chain_steps(size, sums.long_kernel, sums.lanes) >= chain_steps(size, sums.plain_kernel, sums.lanes)) {
    return "the plane's tail past whole blocks of 32 costs more than the chains save";
  }
  return nullptr;
}

}  // namespace onnxpool::detail
