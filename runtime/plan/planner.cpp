// plan_call: validation, geometry, backend and target, route, kernel choice,
// in that order. Each kernel family is one entry of an ordered candidate
// list (kernel_candidates.cpp); the first that accepts the call runs it.
#include "plan/plan.h"

#include <limits>

#include "plan/attribute_checks.h"
#include "dispatch/backend.h"
#include "dispatch/cpu_dispatch.h"
#include "execute/empty_input.h"
#include "execute/float32_lp.h"
#include "execute/large_planes.h"
#include "plan/narrow_rows.h"
#include "plan/operator_setup.h"
#include "plan/kernel_candidates.h"
#include "dispatch/runtime_knobs.h"
#include "plan/tensor_checks.h"
#include "plan/unit_axes.h"
#include "execute/window_segments.h"

namespace onnxpool::detail {

PlanContext PlanContext::current() {
  PlanContext context;
  context.host_backend = active_backend();
  context.cpu_target = pick_cpu_target();
  context.allowed_cpu_targets = detail::allowed_cpu_targets();
  context.threads = num_threads();
  return context;
}

PlanContext PlanContext::for_cpu_variant(CpuVariant variant, int threads) {
  PlanContext context;
  context.threads = threads;
  for (size_t t = 0; t < target_count() && t < 32; ++t) {
    const TargetInfo& info = target_info(t);
    if (info.backend != Backend::kCpu || cpu_variant_rank(info.cpu_variant) > cpu_variant_rank(variant)) continue;
    context.allowed_cpu_targets |= 1u << t;
    if (context.cpu_target < 0) context.cpu_target = static_cast<int>(t);
  }
  return context;
}

LaunchSettings PlanContext::launch_settings() const {
  LaunchSettings settings;
  settings.threads = threads;
  settings.knobs = &runtime_knobs_of(cpu_target);
  settings.rows_cap = rows_per_task_cap_of(cpu_target);
  return settings;
}

const char* route_name(Route route) {
  switch (route) {
    case Route::kNothing: return "nothing to run (no output element)";
    case Route::kWindowsWithoutInput: return "outputs filled without a kernel (X has no element)";
    case Route::kWhole: return "whole";
    case Route::kPieces: return "in pieces (planes past 2^31 bytes)";
    case Route::kSegments: return "in segments (windows far into the padding)";
    case Route::kFloat32LpFirst: return "float32 sums, exact kernel for flagged planes";
    case Route::kCoveredAxesFirst: return "the covered trailing axes reduced first";
  }
  return "unknown";
}

namespace {

// The backend and target a call runs on, or why there is none.
Status choose_target(PoolOp op, const PlanContext& context, Plan* plan) {
  plan->backend = plan->device == Device::kCuda ? Backend::kCuda : context.host_backend;
  const int target = plan->backend == Backend::kCpu ? context.cpu_target : pick_target(plan->backend);
  if (target < 0 && plan->backend == Backend::kCpu) {
    return Status::unsupported(std::string(op_name(op)) + ": this CPU lacks the features of every target compiled "
                               "into this build of onnxpool (the x86 baseline needs SSE4.1)");
  }
  if (target < 0) {
    return Status::unsupported(std::string(op_name(op)) + ": this build of onnxpool has no " +
                               backend_name(plan->backend) + " kernels (ONNXPOOL_GPU_TARGETS)");
  }
  plan->launch.target = target;
  return Status::ok();
}

// A target without this type's kernels runs the float32 kernel on widened
// host copies, where there is one.
Status check_widening(const Plan& plan, bool* widened) {
  const KernelEntry& kernel = *plan.launch.kernel;
  *widened = kernel.run[plan.launch.target] == nullptr;
  if (!*widened) return Status::ok();
  if (widened_kernel(kernel, plan.type) == nullptr || plan.device != Device::kHost) {
    return Status::unsupported(std::string(op_name(plan.op)) + ": this build has no " +
                               element_type_name(plan.type) + " kernel for the " + backend_name(plan.backend) +
                               " backend");
  }
  return Status::ok();
}

// How the general kernel's call is cut: pieces for planes past 32-bit
// buffers, segments for windows far into the padding, else whole.
Status choose_route(const Plan& plan, Route* route) {
  // Tensors without data, typed as the launch sees them (widened: float32).
  const ElementType seen = plan.widened ? ElementType::kFloat32 : plan.type;
  const TensorView x(nullptr, seen, {}, plan.device), y(nullptr, seen, {}, plan.device),
      indices(nullptr, ElementType::kInt64, {}, plan.device);
  // What needs_pieces and segments_pay_off read, without copying the launch.
  KernelCall probe;
  probe.kernel = plan.launch.kernel;
  probe.count_include_pad = plan.launch.count_include_pad;
  probe.geometry = &plan.geometry;
  probe.input = &x;
  probe.outputs = {&y};
  if (plan.with_indices) probe.outputs.push_back(&indices);
  if (needs_pieces(probe)) {
    *route = Route::kPieces;
    return Status::ok();
  }
  if (!is_global_op(plan.op) && segments_pay_off(probe)) {
    *route = Route::kSegments;
    return Status::ok();
  }
  *route = Route::kWhole;
  return is_global_op(plan.op) ? Status::ok() : check_row_buffer(plan.op, plan.geometry);
}

// Leading axes of one tap fold into the planes (plan/unit_axes.h) where the
// folded call still runs whole with the same kind of kernel: a call cut into
// segments keeps its rank (a 1D call has no segments), and so does one
// whose folded form a kernel of the lower rank cannot take.
void fold_leading_axes(const TensorView& X, bool column_major_indices, Plan* plan) {
  if (plan->route != Route::kWhole || is_global_op(plan->op)) return;
  // Most calls have none: they copy no plan.
  if (unit_leading_axes(plan->geometry, column_major_indices) == 0) return;
  Plan folded = *plan;
  const int axes = fold_unit_leading_axes(column_major_indices, &folded.geometry);
  const KernelEntry* general = nullptr;
  if (!find_operator_kernel(plan->op, X, folded.geometry, plan->launch.kernel->variant, &general)) return;
  folded.launch.kernel = general;
  bool widened = false;
  Route route = Route::kNothing;
  if (!check_widening(folded, &widened) || widened != plan->widened) return;
  if (!choose_route(folded, &route) || route != Route::kWhole) return;
  *plan = folded;
  plan->folded_axes = axes;
}

// The scalars each operator's kernels take besides the window.
void add_operator_scalars(const PoolAttributes& attributes, Plan* plan) {
  KernelCall& launch = plan->launch;
  const WindowGeometry& g = plan->geometry;
  switch (plan->op) {
    case PoolOp::kMaxPool:
      launch.scalars.push_back(ScalarArg::boolean("clamp_safe", clamped_row_taps_are_harmless(g)));
      if (plan->with_indices) launch.scalars.push_back(ScalarArg::boolean("column_major", attributes.storage_order == 1));
      break;
    case PoolOp::kAveragePool:
      // count_include_pad = 1 counts the taps inside [-pad_begin, in + pad_end):
      // a ceil_mode window running past the end pad does not count the taps
      // beyond it (ONNX opset 19+ reference, onnxruntime). = 0 counts real taps.
      for (const AxisWindow& a : g.axes) {
        int64_t end = a.input;
        if (attributes.count_include_pad && __builtin_add_overflow(a.input, a.pad_end, &end)) {
          end = std::numeric_limits<int64_t>::max();  // past every tap either way
        }
        launch.count_begin.push_back(attributes.count_include_pad ? -a.pad_begin : 0);
        launch.count_end.push_back(end);
      }
      break;
    case PoolOp::kLpPool:
    case PoolOp::kGlobalLpPool: launch.scalars.push_back(lp_power_argument(attributes.p)); break;
    case PoolOp::kGlobalMaxPool:
    case PoolOp::kGlobalAveragePool: break;
  }
}

}  // namespace

Status plan_call(PoolOp op, const PoolAttributes& attributes, const TensorView& X, const TensorView* Y,
                 const TensorView* Indices, bool with_indices, const PlanContext& context, Plan* plan) {
  plan->op = op;
  plan->kernel_op = op;
  plan->type = X.type;
  plan->device = X.device;
  plan->with_indices = with_indices;
  plan->launch.count_include_pad = op == PoolOp::kAveragePool && attributes.count_include_pad;
  plan->p = attributes.p;
  Status s = check_operator_call(op, attributes, X, Y, &plan->geometry);
  if (!s) return s;
  if (with_indices && op != PoolOp::kMaxPool) {
    return Status::invalid_argument(std::string(op_name(op)) + ": output 'Indices' exists only for MaxPool; pass nullptr");
  }
  if (Indices != nullptr) {
    s = check_output(op, "Indices", *Indices, X, ElementType::kInt64, plan->geometry.output_shape);
    if (!s) return s;
  }
  plan->output_shape = plan->geometry.output_shape;
  // The general kernel: its absence is the type's (kUnsupported, naming the
  // types this operator has).
  const KernelEntry* general = nullptr;
  s = find_operator_kernel(op, X, plan->geometry, general_variant(op, X.type, attributes.p, with_indices), &general);
  if (!s) return s;
  plan->launch.kernel = general;
  if (windows_without_input(plan->geometry)) {
    plan->route = Route::kWindowsWithoutInput;
    return Status::ok();
  }
  if (plan->geometry.planes() == 0 || plan->geometry.output_plane_size() == 0) {
    plan->route = Route::kNothing;
    return Status::ok();
  }
  s = choose_target(op, context, plan);
  if (!s) return s;
  plan->launch.settings = context.launch_settings();
  s = check_widening(*plan, &plan->widened);
  if (!s) return s;
  s = choose_route(*plan, &plan->route);
  if (!s) return s;
  fold_leading_axes(X, with_indices && attributes.storage_order == 1, plan);
  add_operator_scalars(attributes, plan);
  choose_kernel(context, plan);
  // Kernels that step one vector along each output row take the widest
  // allowed CPU target whose vector fits in a row (narrow_rows.h).
  const KernelEntry& kernel = *plan->launch.kernel;
  if (plan->backend == Backend::kCpu && steps_along_output_rows(kernel)) {
    const WindowGeometry& rows = plan->route == Route::kCoveredAxesFirst ? plan->leading : plan->geometry;
    const int row_target =
        cpu_target_for_rows(kernel, rows.axes.back().output, plan->launch.target, context.allowed_cpu_targets);
    if (row_target != plan->launch.target) {
      plan->target_reason = "output rows narrower than the best target's vector";
      plan->launch.target = row_target;
    }
  }
  return Status::ok();
}

}  // namespace onnxpool::detail
