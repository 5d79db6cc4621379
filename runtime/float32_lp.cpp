#include "float32_lp.h"

#include <cfloat>
#include <cmath>
#include <cstring>
#include <memory>
#include <new>

#include "attribute_checks.h"
#include "kernel_launch.h"

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

namespace {

// Taps of one window: an upper bound on the terms any output sums (in
// double: a product of three int32 kernel extents can pass int64).
double taps_per_window(PoolOp op, const WindowGeometry& geometry) {
  if (is_global_op(op)) return static_cast<double>(geometry.input_plane_size());
  double taps = 1;
  for (const AxisWindow& axis : geometry.axes) taps *= static_cast<double>(axis.kernel);
  return taps;
}

// X viewed as `chunks` planes of equal size for the range check, each at
// least a few thousand elements where X's planes divide that way: only
// whether any value is out of range matters, and every plane of the check
// costs a fold of its partials (GlobalLpPool S7, 256 planes of 196: the
// check took longer than the sum).
WindowGeometry range_check_chunks(const WindowGeometry& geometry) {
  constexpr int64_t kChunkElements = 16 * 1024;
  const int64_t planes = geometry.planes();
  const int64_t plane_size = geometry.input_plane_size();
  int64_t merged = 1;
  if (planes > 0 && plane_size > 0) {
    while (planes % (2 * merged) == 0 && plane_size * 2 * merged <= kChunkElements) merged *= 2;
  }
  WindowGeometry chunks;
  chunks.batch = 1;
  chunks.channels = planes / merged;
  AxisWindow flat;
  flat.input = plane_size * merged;
  flat.output = 1;
  chunks.axes = {flat};
  return chunks;
}

}  // namespace

KernelCall lp_kernel_call(const KernelEntry& kernel, const WindowGeometry& geometry, const TensorView& X,
                          const TensorView& Y, int64_t p) {
  KernelCall call;
  call.kernel = &kernel;
  call.geometry = &geometry;
  call.input = &X;
  call.outputs = {&Y};
  // validate_attributes bounds p to int32.
  call.scalars.push_back(ScalarArg::int32("p", static_cast<int32_t>(p)));
  return call;
}

Status run_float32_lp(PoolOp op, int64_t p, const WindowGeometry& geometry, const TensorView& X,
                      const TensorView& Y, Float32LpOutcome* outcome) {
  *outcome = Float32LpOutcome::kUnavailable;
  const int rank = is_global_op(op) ? 0 : static_cast<int>(geometry.axes.size());
  const KernelEntry* sum = find_kernel(op, X.type, rank, KernelVariant::kFloat32Sum);
  const KernelEntry* check = find_kernel(PoolOp::kLpPool, X.type, 0, KernelVariant::kRangeCheck);
  if (sum == nullptr || check == nullptr || !kernel_runs_on(*sum, X.device) || !kernel_runs_on(*check, X.device)) {
    return Status::ok();
  }
  const Float32LpRange range = float32_lp_range(p, taps_per_window(op, geometry));
  if (!(range.lowest <= range.highest)) return Status::ok();

  // One flag per chunk, zeroed: a call over empty planes writes none.
  const WindowGeometry chunks = range_check_chunks(geometry);
  const int64_t planes = chunks.planes();
  std::unique_ptr<uint8_t[]> flags(new (std::nothrow) uint8_t[static_cast<size_t>(planes > 0 ? planes : 1)]());
  if (flags == nullptr) return Status::ok();  // the exact kernels need no scratch
  const TensorView flag_view(flags.get(), ElementType::kUInt8, {planes});
  KernelCall range_check;
  range_check.kernel = check;
  range_check.geometry = &chunks;
  range_check.input = &X;
  range_check.outputs = {&flag_view};
  range_check.scalars = {ScalarArg::float32("lowest", range.lowest), ScalarArg::float32("highest", range.highest)};
  Status s = launch_kernel(range_check);
  if (!s) return s;
  if (std::memchr(flags.get(), 1, static_cast<size_t>(planes > 0 ? planes : 0)) != nullptr) {
    *outcome = Float32LpOutcome::kOutOfRange;
    return Status::ok();
  }

  s = launch_kernel(lp_kernel_call(*sum, geometry, X, Y, p));
  if (s) *outcome = Float32LpOutcome::kRan;
  return s;
}

}  // namespace onnxpool::detail
