#include "execute/float32_lp.h"

#include "execute/large_planes.h"

#include <cfloat>
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <new>
#include <vector>

#include "plan/attribute_checks.h"
#include "execute/float_bits.h"
#include "execute/float_magnitudes.h"
#include "execute/kernel_launch.h"

namespace onnxpool::detail {

Float32LpRange float32_lp_range(int64_t p, double taps) {
  const double exponent = 1.0 / static_cast<double>(p);
  const double lowest = std::exp2(-100.0 * exponent);
  const double highest = std::pow(static_cast<double>(FLT_MAX) / (2.0 * taps), exponent);
  Float32LpRange range;
  range.lowest = static_cast<float>(lowest);
  if (static_cast<double>(range.lowest) < lowest) range.lowest = std::nextafter(range.lowest, FLT_MAX);
  range.highest = static_cast<float>(highest);
  if (static_cast<double>(range.highest) > highest) range.highest = std::nextafter(range.highest, 0.0f);
  return range;
}

float smallest_trusted_float32_lp(int64_t p, double taps) {
  const double smallest = std::pow(taps * std::exp2(-102.0), 1.0 / static_cast<double>(p));
  float trusted = static_cast<float>(smallest);
  if (static_cast<double>(trusted) < smallest) trusted = std::nextafter(trusted, FLT_MAX);
  return trusted;
}

namespace {

// Taps of one window: an upper bound on the terms any output sums (in
// double: a product of three int32 kernel extents can pass int64).
double taps_per_window(PoolOp op, const WindowGeometry& geometry) {
  if (is_global_op(op)) return static_cast<double>(geometry.input_plane_size());
  double taps = 1;
  for (const AxisWindow& axis : geometry.axes) taps *= static_cast<double>(axis.kernel);
  return taps;
}

// What the float32 outputs of one plane say about it.
enum class PlaneVerdict : uint8_t {
  kTrusted,  // every output finite and at least the smallest trusted one
  kSuspect,  // finite, but some output small (or zero): the range check decides
  kRedo,     // an infinite or NaN output: recompute exactly
};

constexpr uint32_t kLargestFiniteBits = 0x7F7FFFFFu;

// Whether every output is finite and at least `trusted`: the usual answer,
// found in one pass over Y, not one per plane (docs/design-decisions.md,
// "Lp: float32 sums, checked after they run").
bool every_output_trusted(const TensorView& Y, int64_t count, float trusted) {
  const MagnitudeRange all = magnitudes_in_parallel(Y, count);
  return all.largest <= kLargestFiniteBits && all.smallest >= bits_of(trusted);
}

// Sorts the planes by their float32 outputs (float32 or bfloat16 Y).
void judge_planes(const TensorView& Y, int64_t planes, int64_t plane_size, float trusted, PlaneVerdict* verdicts) {
  for (int64_t plane = 0; plane < planes; ++plane) {
    const MagnitudeRange range = magnitudes(Y, plane * plane_size, plane_size);
    verdicts[plane] = range.largest > kLargestFiniteBits     ? PlaneVerdict::kRedo
                      : range.smallest < bits_of(trusted) ? PlaneVerdict::kSuspect
                                                          : PlaneVerdict::kTrusted;
  }
}

// Planes [first, first + count) of a tensor whose planes hold `plane_size`
// elements, as a tensor of shape [1, count, rest...].
TensorView plane_run(const TensorView& t, int64_t plane_size, int64_t first, int64_t count) {
  std::vector<int64_t> shape = t.shape;
  shape[0] = 1;
  shape[1] = count;
  return TensorView(static_cast<uint8_t*>(t.data) + first * plane_size * static_cast<int64_t>(element_size(t.type)),
                    t.type, shape, t.device);
}

WindowGeometry geometry_of_planes(const WindowGeometry& geometry, int64_t count) {
  WindowGeometry run = geometry;
  run.batch = 1;
  run.channels = count;
  if (run.output_shape.size() >= 2) {
    run.output_shape[0] = 1;
    run.output_shape[1] = count;
  }
  return run;
}

// Calls `f(first, count)` for each run of consecutive planes with `verdict`.
template <typename F>
Status for_each_run(const PlaneVerdict* verdicts, int64_t planes, PlaneVerdict verdict, F f) {
  for (int64_t first = 0; first < planes;) {
    if (verdicts[first] != verdict) {
      ++first;
      continue;
    }
    int64_t end = first + 1;
    while (end < planes && verdicts[end] == verdict) ++end;
    const Status s = f(first, end - first);
    if (!s) return s;
    first = end;
  }
  return Status::ok();
}

// The range check over suspect planes: a plane holding a nonzero |x| outside
// `range` (so some term may have underflowed) becomes kRedo, the others
// kTrusted (their small outputs are exact: all their terms were normal).
Status check_suspect_planes(const Float32LpKernels& kernels, const WindowGeometry& geometry, const TensorView& X,
                            const Float32LpRange& range, PlaneVerdict* verdicts) {
  const int64_t plane_size = geometry.input_plane_size();
  return for_each_run(verdicts, geometry.planes(), PlaneVerdict::kSuspect, [&](int64_t first, int64_t count) {
    std::unique_ptr<uint8_t[]> flags(new (std::nothrow) uint8_t[static_cast<size_t>(count)]());
    if (flags == nullptr) {
      // No memory for the flags: recompute these planes rather than trust them.
      for (int64_t i = first; i < first + count; ++i) verdicts[i] = PlaneVerdict::kRedo;
      return Status::ok();
    }
    const WindowGeometry planes = flat_planes(count, plane_size);
    const TensorView input = plane_run(X, plane_size, first, count);
    const TensorView flag_view(flags.get(), ElementType::kUInt8, {count});
    KernelCall range_check;
    range_check.kernel = kernels.range_check;
    range_check.target = kernels.target;
    range_check.settings = kernels.settings;
    range_check.geometry = &planes;
    range_check.input = &input;
    range_check.outputs = {&flag_view};
    range_check.scalars = {ScalarArg::float32("lowest", range.lowest), ScalarArg::float32("highest", range.highest)};
    const Status s = launch_kernel(range_check);
    if (!s) return s;
    for (int64_t i = 0; i < count; ++i) verdicts[first + i] = flags[i] ? PlaneVerdict::kRedo : PlaneVerdict::kTrusted;
    return Status::ok();
  });
}

}  // namespace

KernelCall lp_kernel_call(const KernelEntry& kernel, const WindowGeometry& geometry, const TensorView& X,
                          const TensorView& Y, int64_t p) {
  KernelCall call;
  call.kernel = &kernel;
  call.geometry = &geometry;
  call.input = &X;
  call.outputs = {&Y};
  call.scalars.push_back(lp_power_argument(p));
  return call;
}

ScalarArg lp_power_argument(int64_t p) {
  // The kernels take p in int32. A larger p runs as 2^31 - 1: the Lp norm
  // falls with p towards the largest |x|, and between p' = 2^31 - 1 and any
  // p > p' it falls by a factor of at most taps^(1/p') (the norm lies
  // between max|x| and taps^(1/p) max|x|), under 1 + 3e-8 for any window
  // that fits in memory: less than a float32 ulp, 1e-8 relative in float64.
  constexpr int64_t kLargestKernelP = std::numeric_limits<int32_t>::max();
  return ScalarArg::int32("p", static_cast<int32_t>(std::min(p, kLargestKernelP)));
}

const char* float32_lp_declines(PoolOp op, int64_t p, const WindowGeometry& geometry) {
  const Float32LpRange range = float32_lp_range(p, taps_per_window(op, geometry));
  // A p this large overflows or underflows float32 for nearly any input.
  if (!(range.lowest <= range.highest)) return "p too large for float32 sums of any input";
  return nullptr;
}

Status run_float32_lp(const Float32LpKernels& kernels, int64_t p, const WindowGeometry& geometry, const TensorView& X,
                      const TensorView& Y, Float32LpOutcome* outcome) {
  *outcome = Float32LpOutcome::kUnavailable;
  const PoolOp op = kernels.sum->op;
  const double taps = taps_per_window(op, geometry);
  const Float32LpRange range = float32_lp_range(p, taps);
  if (!(range.lowest <= range.highest)) return Status::internal("LpPool: float32 sums planned for a p too large");
  // Every launch takes the plan's target and settings.
  const auto planned = [&](KernelCall call) {
    call.target = kernels.target;
    call.settings = kernels.settings;
    return call;
  };
  Status s = launch_kernel(planned(lp_kernel_call(*kernels.sum, geometry, X, Y, p)));
  if (!s) return s;
  *outcome = Float32LpOutcome::kRan;
  const int64_t planes = geometry.planes();
  const float trusted = smallest_trusted_float32_lp(p, taps);
  if (every_output_trusted(Y, planes * geometry.output_plane_size(), trusted)) return Status::ok();

  auto redo = [&](int64_t first, int64_t count) {
    *outcome = Float32LpOutcome::kRanWithExactPlanes;
    const WindowGeometry run = geometry_of_planes(geometry, count);
    const TensorView input = plane_run(X, geometry.input_plane_size(), first, count);
    const TensorView output = plane_run(Y, geometry.output_plane_size(), first, count);
    return launch_kernel(planned(lp_kernel_call(*kernels.exact, run, input, output, p)));
  };
  std::unique_ptr<PlaneVerdict[]> verdicts(new (std::nothrow) PlaneVerdict[static_cast<size_t>(planes)]);
  if (verdicts == nullptr) return redo(0, planes);  // no memory to sort the planes: redo them all
  judge_planes(Y, planes, geometry.output_plane_size(), trusted, verdicts.get());
  s = check_suspect_planes(kernels, geometry, X, range, verdicts.get());
  if (!s) return s;
  return for_each_run(verdicts.get(), planes, PlaneVerdict::kRedo, redo);
}

}  // namespace onnxpool::detail
