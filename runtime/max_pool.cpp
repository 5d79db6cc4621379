// MaxPool entry point: validate everything, then run the kernel.
#include "kernel_launch.h"
#include "kernel_registry.h"
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

Status max_pool(const PoolAttributes& attributes, const TensorView& X, const TensorView& Y,
                const TensorView* Indices) {
  constexpr PoolOp op = PoolOp::kMaxPool;
  if (attributes.op != op) {
    return Status::invalid_argument(std::string("MaxPool: attributes were parsed for ") + op_name(attributes.op));
  }
  Status s = detail::check_input(op, "X", X);
  if (!s) return s;
  detail::WindowGeometry geometry;
  s = detail::compute_window_geometry(attributes, X.shape, &geometry);
  if (!s) return s;
  s = detail::check_output(op, "Y", Y, X.type, geometry.output_shape);
  if (!s) return s;
  if (Indices != nullptr) {
    s = detail::check_output(op, "Indices", *Indices, ElementType::kInt64, geometry.output_shape);
    if (!s) return s;
  }
  const int rank = static_cast<int>(geometry.axes.size());
  if (rank > 3) {
    return Status::unsupported("MaxPool: X " + detail::shape_string(X.shape) + " has " + std::to_string(rank) +
                               " spatial axes (kernel_shape has as many); onnxpool supports 1 to 3");
  }
  const auto variant = Indices ? detail::KernelVariant::kWithIndices : detail::KernelVariant::kPlain;
  const detail::KernelEntry* kernel = detail::find_kernel(op, X.type, rank, variant);
  if (kernel == nullptr) {
    return Status::unsupported("MaxPool: X has element type " + std::string(element_type_name(X.type)) +
                               "; MaxPool supports float32, float16, bfloat16, float64, int8 and uint8");
  }
  detail::KernelCall call;
  call.kernel = kernel;
  call.geometry = &geometry;
  call.input = &X;
  call.outputs = {&Y};
  call.scalars.push_back(detail::ScalarArg::boolean("clamp_safe", clamped_row_taps_are_harmless(geometry)));
  if (Indices) {
    call.outputs.push_back(Indices);
    call.scalars.push_back(detail::ScalarArg::boolean("column_major", attributes.storage_order == 1));
  }
  return detail::launch_window_kernel(call);
}

}  // namespace onnxpool
