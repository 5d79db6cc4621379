#include "plan/operator_setup.h"

#include <string>

#include "plan/attribute_checks.h"
#include "api/call_guard.h"
#include "plan/tensor_checks.h"

namespace onnxpool::detail {

Status check_operator_call(PoolOp op, const PoolAttributes& attributes, const TensorView& X, const TensorView* Y,
                           WindowGeometry* geometry) {
  if (attributes.op != op) {
    return Status::invalid_argument(std::string(op_name(op)) + ": attributes were parsed for " +
                                    op_name(attributes.op));
  }
  Status s = check_input(op, "X", X, /*needs_data=*/Y != nullptr);
  if (!s) return s;
  note_host_allocation();  // the geometry's lists: the call's first buffer of its own
  s = compute_window_geometry(attributes, X.shape, geometry);
  if (!s) return s;
  return Y == nullptr ? Status::ok() : check_output(op, "Y", *Y, X, X.type, geometry->output_shape);
}

Status find_operator_kernel(PoolOp op, const TensorView& X, const WindowGeometry& geometry, KernelVariant variant,
                            const KernelEntry** kernel) {
  const bool global = is_global_op(op);
  const int rank = static_cast<int>(geometry.axes.size());
  if (!global && rank > kMaxWindowedRank) {
    return Status::unsupported(std::string(op_name(op)) + ": X " + shape_string(X.shape) + " has " +
                               std::to_string(rank) + " spatial axes (kernel_shape has as many); onnxpool supports 1 to 3");
  }
  *kernel = find_kernel(op, X.type, global ? 0 : rank, variant);
  if (*kernel != nullptr) return Status::ok();
  const bool integer = X.type == ElementType::kInt8 || X.type == ElementType::kUInt8;
  const bool onnx_type = op == PoolOp::kMaxPool || !integer;
  if (onnx_type && build_selection()[0] != '\0') {
    const std::string axes = global ? std::string() : " with " + std::to_string(rank) + " spatial axes";
    return Status::unsupported(std::string(op_name(op)) + ": this build of onnxpool has no " +
                               element_type_name(X.type) + " kernel for " + op_name(op) + axes +
                               "; it was built with " + build_selection());
  }
  const char* supported = op == PoolOp::kMaxPool ? "float32, float16, bfloat16, float64, int8 and uint8"
                                                 : "float32, float16, bfloat16 and float64";
  return Status::unsupported(std::string(op_name(op)) + ": X has element type " + element_type_name(X.type) + "; " +
                             op_name(op) + " supports " + supported);
}

}  // namespace onnxpool::detail
