#include "execute/executor.h"

#include "execute/covered_axes_first.h"
#include "execute/empty_input.h"
#include "execute/float32_lp.h"
#include "execute/large_planes.h"
#include "execute/window_segments.h"

namespace onnxpool::detail {

Float32LpKernels float32_lp_kernels(const Plan& plan) {
  Float32LpKernels kernels;
  kernels.sum = plan.launch.kernel;
  kernels.range_check = plan.range_check;
  kernels.exact = plan.exact;
  kernels.target = plan.launch.target;
  kernels.settings = plan.launch.settings;
  return kernels;
}

Status execute(const Plan& plan, const TensorView& X, const TensorView& Y, const TensorView* Indices) {
  if (plan.with_indices != (Indices != nullptr)) return Status::internal("execute: Indices unlike the plan's");
  switch (plan.route) {
    case Route::kNothing: return Status::ok();
    case Route::kWindowsWithoutInput:
      return fill_windows_without_input(plan.op, plan.launch.count_include_pad, plan.geometry, Y, Indices);
    case Route::kCoveredAxesFirst: {
      KernelCall reduce = plan.reduce;
      reduce.geometry = &plan.reduced;
      KernelCall window = plan.launch;
      window.geometry = &plan.leading;
      return run_covered_axes_first(reduce, window, X, Y);
    }
    default: break;
  }
  KernelCall call = plan.launch;
  call.geometry = &plan.geometry;
  call.input = &X;
  call.outputs = {&Y};
  if (Indices != nullptr) call.outputs.push_back(Indices);
  switch (plan.route) {
    case Route::kWhole: return launch_kernel(call);
    case Route::kPieces: return launch_in_pieces(call);
    case Route::kSegments: return launch_in_segments(call);
    case Route::kFloat32LpFirst: {
      Float32LpOutcome outcome = Float32LpOutcome::kUnavailable;
      return run_float32_lp(float32_lp_kernels(plan), plan.p, plan.geometry, X, Y, &outcome);
    }
    default: break;
  }
  return Status::internal("execute: a plan without a route");
}

}  // namespace onnxpool::detail
