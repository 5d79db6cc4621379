#include "plan/kernel_candidates.h"

#include <iterator>

#include "plan/attribute_checks.h"
#include "plan/covered_axes.h"
#include "plan/flat_plane.h"
#include "execute/float32_lp.h"
#include "plan/halving.h"
#include "execute/large_planes.h"
#include "plan/long_planes.h"
#include "plan/narrow_rows.h"
#include "plan/whole_plane.h"

namespace onnxpool::detail {
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

// One kernel family: its variant and the rule that admits a call (given the
// family's kernel, which the build has for the call's target). A special
// family needs its own entry for the call's target (no widening).
struct Candidate {
  const char* name;
  KernelVariant variant;
  const char* (*declines)(const PlanContext& context, const Plan& plan, const KernelEntry& kernel);
};

const char* flat_plane_rule(const PlanContext& context, const Plan& plan, const KernelEntry&) {
  if (plan.route != Route::kWhole) return "the call is cut (flat-plane kernels take whole planes)";
  return flat_plane_declines(plan.geometry, context.launch_settings());
}

const char* halving_rule(const PlanContext&, const Plan& plan, const KernelEntry&) {
  if (plan.route == Route::kSegments) return "the call runs in segments";
  return halving_declines(plan.geometry);
}

const char* long_planes_rule(const PlanContext& context, const Plan& plan, const KernelEntry& long_kernel) {
  if (plan.launch.target < 0) return "no CPU target";
  const size_t target = static_cast<size_t>(plan.launch.target);
  PlaneSums sums;
  sums.lanes = vector_lanes(*plan.launch.kernel, target);
  sums.plain_kernel = tuned_global_partials(*plan.launch.kernel, target, sums.lanes);
  sums.long_kernel = tuned_global_partials(long_kernel, target, kLongPlanePartials);
  return long_planes_declines(plan.geometry, sums, context.launch_settings());
}

const char* float32_lp_rule(const PlanContext&, const Plan& plan, const KernelEntry&) {
  if (plan.device != Device::kHost) return "X is a device tensor (the flagged planes are sorted on the host)";
  if (plan.route != Route::kWhole) return "the call is cut (the range check works on whole planes)";
  return float32_lp_declines(plan.kernel_op, plan.p, plan.geometry);
}

// The special families before the general one, per operator.
constexpr Candidate kWindowedSpecials[] = {
    {"flat-plane", KernelVariant::kFlatPlane, flat_plane_rule},
    {"halving", KernelVariant::kHalving, halving_rule},
};
constexpr Candidate kMeanSpecials[] = {
    {"long planes", KernelVariant::kLongPlanes, long_planes_rule},
};
constexpr Candidate kLpSpecials[] = {
    {"float32 sums", KernelVariant::kFloat32Sum, float32_lp_rule},
};

const char* general_name(const Plan& plan) {
  switch (plan.launch.kernel->variant) {
    case KernelVariant::kWithIndices: return "separable with Indices";
    case KernelVariant::kScaled: return "exact scaled sums";
    default: break;
  }
  if (is_global_op(plan.kernel_op)) {
    return plan.kernel_op == PoolOp::kGlobalLpPool ? "global exact sums" : "global reduction";
  }
  return plan.kernel_op == PoolOp::kLpPool ? "separable exact sums" : "separable";
}

// Whether this build has `op`'s `variant` of spatial rank `rank` (0 for the
// global operators) for the call's target, or why not.
const char* missing(const Plan& plan, PoolOp op, int rank, KernelVariant variant, const KernelEntry** kernel) {
  *kernel = find_kernel(op, plan.type, rank, variant);
  if (*kernel == nullptr) return "not in this build for this type and rank";
  if ((*kernel)->run[plan.launch.target] == nullptr) return "not compiled for the call's target";
  return nullptr;
}

// The same at the call's own rank.
const char* missing(const Plan& plan, PoolOp op, KernelVariant variant, const KernelEntry** kernel) {
  return missing(plan, op, is_global_op(op) ? 0 : static_cast<int>(plan.geometry.axes.size()), variant, kernel);
}

// Why a call cannot run the global pools' kernels in place of its own, or
// nullptr (the two candidates below).
const char* global_kernels_decline(const Plan& plan) {
  if (plan.route != Route::kWhole) return "the call is cut";
  if (plan.widened) return "the call runs on widened copies";
  return nullptr;
}

// A window over the whole plane: the global pool's general kernel, whose
// own candidates are weighed next (plan/whole_plane.h).
void weigh_whole_plane(Plan* plan) {
  const PoolOp global = global_pool_of(plan->op);
  const KernelEntry* kernel = nullptr;
  const char* reason = global_kernels_decline(*plan);
  if (reason == nullptr) {
    reason = whole_plane_declines(plan->op, plan->with_indices, plan->launch.count_include_pad, plan->geometry);
  }
  if (reason == nullptr) reason = missing(*plan, global, general_variant(global, plan->type, plan->p, false), &kernel);
  plan->verdicts.push_back(Verdict{"whole plane", reason});
  if (reason != nullptr) return;
  plan->kernel_op = global;
  plan->launch.kernel = kernel;
}

// Trailing axes the window covers whole: the global pool's general kernel
// over them into scratch, then the general windowed kernel of the leading
// axes' rank (plan/covered_axes.h). True when accepted.
bool weigh_covered_axes(Plan* plan) {
  size_t leading = 0;
  const PoolOp global = global_pool_of(plan->op);
  const KernelEntry* reduce = nullptr;
  const KernelEntry* window = nullptr;
  const char* reason = global_kernels_decline(*plan);
  if (reason == nullptr && (plan->backend != Backend::kCpu || plan->device != Device::kHost)) {
    reason = "not on the CPU backend (the values between the steps are host scratch)";
  }
  if (reason == nullptr) {
    reason = covered_axes_declines(plan->op, plan->type, plan->with_indices, plan->launch.count_include_pad,
                                   plan->geometry, &leading);
  }
  if (reason == nullptr) reason = missing(*plan, global, KernelVariant::kPlain, &reduce);
  if (reason == nullptr) reason = missing(*plan, plan->op, static_cast<int>(leading), KernelVariant::kPlain, &window);
  plan->verdicts.push_back(Verdict{"covered axes first", reason});
  if (reason != nullptr) return false;
  plan->route = Route::kCoveredAxesFirst;
  plan->leading = leading_axes_geometry(plan->geometry, leading);
  int64_t covered_size = 1;
  for (size_t i = leading; i < plan->geometry.axes.size(); ++i) covered_size *= plan->geometry.axes[i].input;
  plan->reduced = flat_planes(plan->leading.planes() * plan->leading.input_plane_size(), covered_size);
  plan->reduce.kernel = reduce;
  plan->reduce.target = plan->launch.target;
  plan->reduce.settings = plan->launch.settings;
  plan->launch.kernel = window;
  if (!plan->launch.count_begin.empty()) {
    plan->launch.count_begin.resize(leading);
    plan->launch.count_end.resize(leading);
  }
  if (plan->op == PoolOp::kMaxPool) {
    plan->launch.scalars.clear();
    plan->launch.scalars.push_back(
        ScalarArg::boolean("clamp_safe", clamped_row_taps_are_harmless(plan->leading)));
  }
  return true;
}

}  // namespace

KernelVariant general_variant(PoolOp op, ElementType type, int64_t p, bool with_indices) {
  if (op == PoolOp::kMaxPool && with_indices) return KernelVariant::kWithIndices;
  if ((op == PoolOp::kLpPool || op == PoolOp::kGlobalLpPool) && !unscaled_lp_is_exact(type, p)) {
    return KernelVariant::kScaled;
  }
  return KernelVariant::kPlain;
}

bool clamped_row_taps_are_harmless(const WindowGeometry& g) {
  for (size_t i = 0; i + 1 < g.axes.size(); ++i) {
    const AxisWindow& a = g.axes[i];
    const bool first_window_reaches_input = a.pad_begin < a.kernel;
    const bool last_window_starts_in_input = (a.output - 1) * a.stride - a.pad_begin < a.input;
    if (a.dilation != 1 || !first_window_reaches_input || !last_window_starts_in_input) return false;
  }
  return true;
}

void choose_kernel(const PlanContext& context, Plan* plan) {
  plan->kernel_op = plan->op;
  if (global_pool_of(plan->op) != plan->op) {
    weigh_whole_plane(plan);
    if (plan->kernel_op == plan->op && weigh_covered_axes(plan)) return;
  }
  const PoolOp op = plan->kernel_op;
  const Candidate* first = nullptr;
  const Candidate* last = nullptr;
  if ((op == PoolOp::kMaxPool && !plan->with_indices) || op == PoolOp::kAveragePool) {
    first = std::begin(kWindowedSpecials);
    last = std::end(kWindowedSpecials);
  } else if (op == PoolOp::kGlobalAveragePool) {
    first = std::begin(kMeanSpecials);
    last = std::end(kMeanSpecials);
  } else if (op == PoolOp::kLpPool || op == PoolOp::kGlobalLpPool) {
    first = std::begin(kLpSpecials);
    last = std::end(kLpSpecials);
  }
  for (const Candidate* c = first; c != last; ++c) {
    const KernelEntry* kernel = nullptr;
    const char* reason = missing(*plan, op, c->variant, &kernel);
    if (reason == nullptr) reason = c->declines(context, *plan, *kernel);
    if (reason == nullptr && c->variant == KernelVariant::kFloat32Sum) {
      // Registered as LpPool's rank-0 kernel (kernel_registry.h).
      const KernelEntry* check = find_kernel(PoolOp::kLpPool, plan->type, 0, KernelVariant::kRangeCheck);
      if (check == nullptr || check->run[plan->launch.target] == nullptr) {
        reason = "no range-check kernel for this type and target";
      } else {
        plan->range_check = check;
      }
    }
    plan->verdicts.push_back(Verdict{c->name, reason});
    if (reason != nullptr) continue;
    if (c->variant == KernelVariant::kFloat32Sum) {
      plan->exact = plan->launch.kernel;
      plan->route = Route::kFloat32LpFirst;
    }
    if (c->variant == KernelVariant::kFlatPlane) {
      const WindowGeometry& g = plan->geometry;
      plan->launch.scalars.push_back(ScalarArg::int32("width", static_cast<int32_t>(g.axes[1].input)));
      plan->launch.scalars.push_back(ScalarArg::int32("height", static_cast<int32_t>(g.axes[0].input)));
    }
    plan->launch.kernel = kernel;
    return;
  }
  plan->verdicts.push_back(Verdict{general_name(*plan), nullptr});
}

}  // namespace onnxpool::detail
