// GlobalMaxPool and GlobalAveragePool entry points (GlobalLpPool: lp_pool.cpp).
#include "call_guard.h"
#include "kernel_launch.h"
#include "operator_setup.h"
#include "onnxpool/pooling.h"

namespace onnxpool {
namespace {

Status run_global(PoolOp op, const PoolAttributes& attributes, const TensorView& X, const TensorView& Y) {
  detail::WindowGeometry geometry;
  detail::KernelCall call;
  Status s = detail::prepare_kernel_call(op, attributes, X, Y, detail::KernelVariant::kPlain, &geometry, &call);
  if (!s) return s;
  return detail::launch_kernel(call);
}

}  // namespace

Status global_max_pool(const PoolAttributes& attributes, const TensorView& X, const TensorView& Y) {
  return detail::guarded_call("GlobalMaxPool", [&] { return run_global(PoolOp::kGlobalMaxPool, attributes, X, Y); });
}

Status global_average_pool(const PoolAttributes& attributes, const TensorView& X, const TensorView& Y) {
  return detail::guarded_call("GlobalAveragePool",
                              [&] { return run_global(PoolOp::kGlobalAveragePool, attributes, X, Y); });
}

}  // namespace onnxpool
