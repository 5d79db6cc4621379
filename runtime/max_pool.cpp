// MaxPool entry point: validate everything, then run the kernel.
#include "call_guard.h"
#include "empty_input.h"
#include "flat_plane.h"
#include "halving.h"
#include "kernel_launch.h"
#include "kernel_registry.h"
#include "operator_setup.h"
#include "onnxpool/pooling.h"
#include "tensor_checks.h"
#include "window_geometry.h"

namespace onnxpool {
namespace {

// True when, on every axis but the last (the kernel pads that one in a row
// buffer), windows are undilated and each holds at least one tap inside the
// input. Then a tap clamped to the input's edge lands on a row of the same
// window, which max ignores (it is idempotent), so the kernel may skip
// testing each tap.
bool clamped_row_taps_are_harmless(const detail::WindowGeometry& g) {
  for (size_t i = 0; i + 1 < g.axes.size(); ++i) {
    const detail::AxisWindow& a = g.axes[i];
    const bool first_window_reaches_input = a.pad_begin < a.kernel;
    const bool last_window_starts_in_input = (a.output - 1) * a.stride - a.pad_begin < a.input;
    if (a.dilation != 1 || !first_window_reaches_input || !last_window_starts_in_input) return false;
  }
  return true;
}

}  // namespace

namespace {

Status run_max_pool(const PoolAttributes& attributes, const TensorView& X, const TensorView& Y,
                    const TensorView* Indices) {
  constexpr PoolOp op = PoolOp::kMaxPool;
  detail::WindowGeometry geometry;
  Status s = detail::check_operator_call(op, attributes, X, Y, &geometry);
  if (!s) return s;
  if (Indices != nullptr) {
    s = detail::check_output(op, "Indices", *Indices, X, ElementType::kInt64, geometry.output_shape);
    if (!s) return s;
  }
  detail::KernelCall call;
  const auto variant = Indices ? detail::KernelVariant::kWithIndices : detail::KernelVariant::kPlain;
  s = detail::find_operator_kernel(op, X, geometry, variant, &call.kernel);
  if (!s) return s;
  if (detail::windows_without_input(geometry)) {
    return detail::fill_windows_without_input(op, attributes, geometry, Y, Indices);
  }
  call.geometry = &geometry;
  call.input = &X;
  call.outputs = {&Y};
  call.scalars.push_back(detail::ScalarArg::boolean("clamp_safe", clamped_row_taps_are_harmless(geometry)));
  if (Indices) {
    call.outputs.push_back(Indices);
    call.scalars.push_back(detail::ScalarArg::boolean("column_major", attributes.storage_order == 1));
  } else {
    detail::prefer_flat_plane_kernel(&call);
    detail::prefer_halving_kernel(&call);
  }
  return detail::launch_kernel(call);
}

}  // namespace

Status max_pool(const PoolAttributes& attributes, const TensorView& X, const TensorView& Y,
                const TensorView* Indices) {
  return detail::guarded_call("MaxPool", [&] { return run_max_pool(attributes, X, Y, Indices); });
}

}  // namespace onnxpool
