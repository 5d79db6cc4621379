// The kernel families each operator may run, as ordered candidate lists:
// the planner weighs them in order and the first that accepts the call runs
// it. A new kernel family is one entry here, with the rule that admits it.
#pragma once

#include <cstdint>

#include "dispatch/kernel_registry.h"
#include "onnxpool/attributes.h"
#include "onnxpool/tensor.h"
#include "plan/plan.h"
#include "plan/window_geometry.h"

namespace onnxpool::detail {

// The variant every call of this operator, type and p can run (the last
// candidate of its list): its absence means the type is unsupported.
KernelVariant general_variant(PoolOp op, ElementType type, int64_t p, bool with_indices);

// Weighs the candidates of plan->op in order, records each verdict, and
// points plan->launch.kernel at the first that accepts (the general kernel,
// already there, when none before it does). Adds the chosen family's
// scalars; for Lp's float32 sums also plan->exact and plan->range_check.
void choose_kernel(const PlanContext& context, Plan* plan);

// MaxPool: true when, on every axis but the last (the kernel pads that one
// in a row buffer), windows are undilated and each holds at least one tap
// inside the input. Then a tap clamped to the input's edge lands on a row of
// the same window, which max ignores, so the kernel may skip testing each tap.
bool clamped_row_taps_are_harmless(const WindowGeometry& g);

}  // namespace onnxpool::detail
