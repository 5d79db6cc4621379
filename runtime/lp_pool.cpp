// LpPool and GlobalLpPool entry points. Both try the float32 sums
// (runtime/float32_lp.h) where the build has them, then pick between the
// exact algorithms (generators/lppool_generator.cpp): the wide sum when its
// accumulator cannot overflow or underflow for this type and p, the scaled
// one otherwise.
#include "call_guard.h"
#include "empty_input.h"
#include "float32_lp.h"
#include "kernel_launch.h"
#include "operator_setup.h"
#include "onnxpool/pooling.h"

namespace onnxpool {
namespace {

// The unscaled kernels sum |x|^p in float64 for float32 and bfloat16, in
// float32 for float16 (generators/accumulation.h). Exact enough when every
// nonzero |x|^p of the type is a normal number of the accumulator:
//   float32/bfloat16 in float64: |x| in [1.4e-45, 3.4e38], p <= 6 gives
//     [7e-271, 2e231] (p = 7 underflows to subnormals);
//   float16 in float32: |x| in [6e-8, 65504], p <= 5 gives [8e-37, 1.2e24].
// float64 has no wider type and only scaled kernels. The generators rely on
// this rule (generators/accumulation.h: lp_kernel_only_for_large_p): the
// other types' scaled kernels have no fast loop nests for p = 1 and 2.
bool unscaled_lp_is_exact(ElementType type, int64_t p) {
  switch (type) {
    case ElementType::kFloat32:
    case ElementType::kBFloat16: return p <= 6;
    case ElementType::kFloat16: return p <= 5;
    default: return false;
  }
}

Status run_lp(PoolOp op, const PoolAttributes& attributes, const TensorView& X, const TensorView& Y) {
  detail::WindowGeometry geometry;
  Status s = detail::check_operator_call(op, attributes, X, Y, &geometry);
  if (!s) return s;
  const auto variant =
      unscaled_lp_is_exact(X.type, attributes.p) ? detail::KernelVariant::kPlain : detail::KernelVariant::kScaled;
  const detail::KernelEntry* exact = nullptr;
  s = detail::find_operator_kernel(op, X, geometry, variant, &exact);
  if (!s) return s;
  if (detail::windows_without_input(geometry)) {
    return detail::fill_windows_without_input(op, attributes, geometry, Y, nullptr);
  }
  // float32 sums first where this build has them (float32_lp.h): twice the
  // lanes of float64, with the exact kernel for the planes they may get wrong.
  detail::Float32LpOutcome fast = detail::Float32LpOutcome::kUnavailable;
  s = detail::run_float32_lp(op, attributes.p, geometry, X, Y, *exact, &fast);
  if (!s || fast != detail::Float32LpOutcome::kUnavailable) return s;
  return detail::launch_kernel(detail::lp_kernel_call(*exact, geometry, X, Y, attributes.p));
}

}  // namespace

Status lp_pool(const PoolAttributes& attributes, const TensorView& X, const TensorView& Y) {
  return detail::guarded_call("LpPool", [&] { return run_lp(PoolOp::kLpPool, attributes, X, Y); });
}

Status global_lp_pool(const PoolAttributes& attributes, const TensorView& X, const TensorView& Y) {
  return detail::guarded_call("GlobalLpPool", [&] { return run_lp(PoolOp::kGlobalLpPool, attributes, X, Y); });
}

}  // namespace onnxpool
