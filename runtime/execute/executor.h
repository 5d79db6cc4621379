// The executor: runs a plan (runtime/plan/plan.h) on a call's tensors. It
// binds the tensors to the plan's launch and follows its route; the ways of
// cutting a call sit below it and call the kernel launch, never the executor
// or the planner, so the call graph has no cycle:
//   execute -> pieces -> segments -> launch_kernel -> widened copies -> kernel
#pragma once

#include "execute/float32_lp.h"
#include "onnxpool/status.h"
#include "onnxpool/tensor.h"
#include "plan/plan.h"

namespace onnxpool::detail {

// The kernels a kFloat32LpFirst plan runs.
Float32LpKernels float32_lp_kernels(const Plan& plan);

// Runs `plan` with X, Y and Indices (nullptr unless the plan is with_indices),
// which the caller has validated against it.
Status execute(const Plan& plan, const TensorView& X, const TensorView& Y, const TensorView* Indices);

}  // namespace onnxpool::detail
