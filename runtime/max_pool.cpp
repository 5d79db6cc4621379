// MaxPool entry point: validate everything, then run the kernel.
#include "kernel_launch.h"
#include "kernel_registry.h"
#include "onnxpool/pooling.h"
#include "tensor_checks.h"
#include "window_geometry.h"

namespace onnxpool {

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
  const auto variant = Indices ? detail::KernelVariant::kWithIndices : detail::KernelVariant::kPlain;
  const detail::KernelEntry* kernel = detail::find_kernel(op, X.type, rank, variant);
  if (kernel == nullptr) {
    return Status::unsupported("MaxPool: no kernel for element type " + std::string(element_type_name(X.type)) +
                               " with " + std::to_string(rank) + " spatial axes (supported: 1 to 3 axes; float32, "
                               "float16, bfloat16, float64, int8, uint8)");
  }
  detail::KernelCall call;
  call.kernel = kernel;
  call.geometry = &geometry;
  call.input = &X;
  call.outputs = {&Y};
  if (Indices) {
    call.outputs.push_back(Indices);
    call.scalars.push_back(detail::ScalarArg::boolean("column_major", attributes.storage_order == 1));
  }
  return detail::launch_window_kernel(call);
}

}  // namespace onnxpool
