// The planner: every decision of a pooling call, made once and kept as a
// value. A plan holds the validated geometry, the kernel (chosen from an
// ordered list of candidates, each accepting or declining with a reason),
// the backend and target, how the call is cut (its route) and the settings
// its launches use. The executor (runtime/execute/executor.h) runs a plan and
// decides nothing the plan already says; PoolOperator keeps one per node
// (docs/design-decisions.md, "Plan, then execute").
#pragma once

#include <cstdint>
#include <string>

#include "platform/inline_vector.h"
#include "execute/kernel_launch.h"
#include "dispatch/kernel_registry.h"
#include "onnxpool/attributes.h"
#include "onnxpool/pooling.h"
#include "onnxpool/status.h"
#include "onnxpool/tensor.h"
#include "plan/window_geometry.h"

namespace onnxpool::detail {

// What a plan depends on besides the call: the process's settings and this
// CPU. current() reads them; tests build one for a CPU they do not run on.
struct PlanContext {
  Backend host_backend = Backend::kCpu;  // where host tensors run (set_backend)
  int cpu_target = -1;                   // the best allowed CPU target; -1: this CPU runs none
  uint32_t allowed_cpu_targets = 0;      // bit t: CPU target t may run (features and variant limit)
  int threads = 1;

  static PlanContext current();
  // As if on a CPU with every feature the targets of `variant` and below
  // need (the x86 variants of this build; ARM64 builds have one target).
  static PlanContext for_cpu_variant(CpuVariant variant, int threads);

  bool allows(size_t target) const { return target < 32 && (allowed_cpu_targets >> target & 1u) != 0; }
  LaunchSettings launch_settings() const;
};

// How the executor runs a plan.
enum class Route {
  kNothing,           // no output element: nothing to run
  kWindowsWithoutInput,  // X has no element but Y has: filled without a kernel (empty_input.h)
  kWhole,             // one launch (the kernel splits its planes into buffers that fit)
  kPieces,            // planes past 2^31 bytes, cut along the first spatial axis (large_planes.h)
  kSegments,          // windows far into the padding, cut by where they lie (window_segments.h)
  kFloat32LpFirst,    // Lp: float32 sums, then the exact kernel on the planes they may get wrong (float32_lp.h)
  kCoveredAxesFirst,  // the trailing axes the window covers, reduced first (covered_axes.h)
};
const char* route_name(Route route);

// One kernel family the planner weighed, in the order it weighed them.
struct Verdict {
  const char* candidate = "";
  const char* declined_because = nullptr;  // nullptr: accepted
};

struct Plan {
  PoolOp op = PoolOp::kMaxPool;
  // The operator whose kernels run: `op`, or the global pool a window over
  // the whole plane computes (plan/whole_plane.h).
  PoolOp kernel_op = PoolOp::kMaxPool;
  ElementType type = ElementType::kFloat32;
  Device device = Device::kHost;
  bool with_indices = false;
  // The shape Y and Indices must have (ONNX's output shape).
  ShapeList output_shape;
  // What the kernels run: the call's geometry, with any leading axes of one
  // tap folded into the planes (`folded_axes` of them, plan/unit_axes.h).
  WindowGeometry geometry;
  int folded_axes = 0;
  Route route = Route::kNothing;
  Backend backend = Backend::kCpu;
  const KernelEntry* kernel = nullptr;  // kFloat32LpFirst: the float32 sums
  // kFloat32LpFirst: the exact kernel for flagged planes and the range check.
  const KernelEntry* exact = nullptr;
  const KernelEntry* range_check = nullptr;
  // Why the target is not context.cpu_target, or nullptr.
  const char* target_reason = nullptr;
  bool widened = false;  // the target lacks this type: the float32 kernel on widened copies
  // The kernel launch, without tensors (the executor binds them): kernel,
  // target, settings, scalars and AveragePool's counting ranges and
  // count_include_pad (false for the other operators).
  KernelCall launch;
  // kCoveredAxesFirst: `reduce` (a global kernel) over `reduced`, one value
  // per plane of the covered trailing axes, into scratch; then `launch` over
  // `leading`, the leading axes' windows on those values, into Y.
  KernelCall reduce;
  WindowGeometry reduced, leading;
  int64_t p = 2;  // Lp: the attribute (the launch's scalar is clamped to int32)
  InlineVector<Verdict, 6> verdicts;

  // The words of describe(): operator, shape, kernel, target, route, threads.
  std::string describe() const;
};

// Plans a call on X (its shape, type and device; its data pointer is checked
// only when `Y` is given) with Indices or not. Y and Indices, when given,
// are validated as the call's outputs, in the order the one-shot functions
// always have: attributes, X, geometry, Y, Indices, kernel.
// `op` is the operator called (the attributes must have been parsed for it).
Status plan_call(PoolOp op, const PoolAttributes& attributes, const TensorView& X, const TensorView* Y,
                 const TensorView* Indices, bool with_indices, const PlanContext& context, Plan* plan);

}  // namespace onnxpool::detail
