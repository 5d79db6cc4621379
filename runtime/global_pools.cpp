// GlobalMaxPool and GlobalAveragePool entry points (GlobalLpPool: lp_pool.cpp).
#include "kernel_launch.h"
#include "operator_setup.h"
#include "onnxpool/pooling.h"

namespace onnxpool {
namespace {

Status run_global(PoolOp op, const PoolAttributes& attributes, const TensorView& X, const TensorView& Y) {
  detail::WindowGeometry geometry;
  Status s = detail::check_operator_call(op, attributes, X, Y, &geometry);
  if (!s) return s;
  detail::KernelCall call;
  s = detail::find_operator_kernel(op, X, geometry, detail::KernelVariant::kPlain, &call.kernel);
  if (!s) return s;
  call.geometry = &geometry;
  call.input = &X;
  call.outputs = {&Y};
  return detail::launch_kernel(call);
}

}  // namespace

Status global_max_pool(const PoolAttributes& attributes, const TensorView& X, const TensorView& Y) {
  return run_global(PoolOp::kGlobalMaxPool, attributes, X, Y);
}

Status global_average_pool(const PoolAttributes& attributes, const TensorView& X, const TensorView& Y) {
  return run_global(PoolOp::kGlobalAveragePool, attributes, X, Y);
}

}  // namespace onnxpool
