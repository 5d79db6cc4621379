// Runs one kernel launch the planner has decided (runtime/plan/plan.h): builds
// the Halide buffers, fills the kernel's arguments by name from its metadata,
// picks the parallel grain, and splits the planes into groups whose buffers
// Halide's 32-bit addressing can reach. It never cuts a call another way:
// pieces and segments are the executor's (runtime/execute/executor.h), and
// they call this, never the reverse.
#pragma once

#include <cstdint>
#include <cstring>

#include "platform/inline_vector.h"
#include "dispatch/kernel_registry.h"
#include "onnxpool/status.h"
#include "onnxpool/tensor.h"
#include "dispatch/runtime_knobs.h"
#include "plan/window_geometry.h"

namespace onnxpool::detail {

// A scalar argument beyond the window attributes, matched by name: a bool,
// int32 or float kernel argument, which the kernel reads through a pointer.
// `name` is a string literal (the kernel argument's name).
struct ScalarArg {
  const char* name = "";
  bool flag = false;
  int32_t number = 0;
  float real = 0.0f;
  enum class Kind { kBool, kInt32, kFloat32 } kind = Kind::kBool;

  static ScalarArg boolean(const char* n, bool v) { return ScalarArg{n, v, 0, 0.0f, Kind::kBool}; }
  static ScalarArg int32(const char* n, int32_t v) { return ScalarArg{n, false, v, 0.0f, Kind::kInt32}; }
  static ScalarArg float32(const char* n, float v) { return ScalarArg{n, false, 0, v, Kind::kFloat32}; }
  bool named(const char* n) const { return std::strcmp(name, n) == 0; }
  const void* address() const {
    switch (kind) {
      case Kind::kBool: return &flag;
      case Kind::kInt32: return &number;
      case Kind::kFloat32: return &real;
    }
    return nullptr;
  }
};

// One value per ONNX spatial axis of a windowed call; with the plane's
// after them (strides).
using AxisValues = InlineVector<int64_t, kMaxWindowedRank>;
using AxisStrides = InlineVector<int64_t, kMaxWindowedRank + 1>;

// What the plan fixed for every launch of a call: the thread count and
// tuning knobs the grain is worked out from.
struct LaunchSettings {
  int threads = 1;
  const RuntimeKnobs* knobs = nullptr;  // the plan's CPU target's (runtime_knobs.h)
  int64_t rows_cap = 0;                 // rows per task at most, for rows_capped calls
};

struct KernelCall {
  const KernelEntry* kernel = nullptr;
  // Index into the kernel's per-target entry points, chosen by the planner.
  // A target without an entry for this type runs the float32 kernel on
  // widened copies (half_widening.h).
  int target = -1;
  LaunchSettings settings;
  const WindowGeometry* geometry = nullptr;
  const TensorView* input = nullptr;
  InlineVector<const TensorView*, 2> outputs;  // in the kernel's output order
  InlineVector<ScalarArg, 4> scalars;
  // AveragePool: per ONNX spatial axis, the range [begin, end) of input
  // coordinates whose taps the divisor counts.
  AxisValues count_begin, count_end;
  bool count_include_pad = false;  // AveragePool: what a window without input taps gives
  // Element strides of X and of the outputs when they are boxes inside
  // larger tensors (window_segments.h): one per ONNX spatial axis, then the
  // plane's. Empty: dense.
  AxisStrides input_strides, output_strides;
  // A piece of a call in pieces (large_planes.h) whose whole call costs
  // enough for segments: the piece weighs segments even below that cost.
  bool piece_of_costly_call = false;

  // The scalar argument of that name, or nullptr.
  const ScalarArg* scalar(const char* name) const {
    for (const ScalarArg& s : scalars) {
      if (s.named(name)) return &s;
    }
    return nullptr;
  }
  // MaxPool's Indices counted with the first spatial axis fastest (storage_order = 1).
  bool column_major_indices() const {
    const ScalarArg* s = scalar("column_major");
    return s != nullptr && s->flag;
  }
};

// The float32 kernel a target without `type` kernels runs on widened
// copies: for float16 and bfloat16 only; nullptr otherwise or when this build
// has none.
const KernelEntry* widened_kernel(const KernelEntry& kernel, ElementType type);

// kUnsupported, naming the attributes, when a windowed call's row buffer
// (window_geometry.h) would pass a kernel buffer.
Status check_row_buffer(PoolOp op, const WindowGeometry& g);

// How many parallel tasks a windowed pool over all of g's planes is worth.
int64_t windowed_tasks_wanted(const WindowGeometry& g, const LaunchSettings& settings);

// Runs a windowed kernel (spatial_rank 1 to 3) or, for a kernel with
// spatial_rank 0, a global one over the flattened planes, on the call's
// target. Makes no heap allocation of its own on the CPU (the kernels'
// scratch comes from the call's pool), so a call that launches several
// times, having built what its later launches need first, is refused
// memory before it writes Y; widened copies allocate.
Status launch_kernel(const KernelCall& call);

#ifdef ONNXPOOL_TEST_HOOKS
// Window taps the windowed kernels have evaluated since the program started:
// per kernel call, planes x outputs x taps per window. Tests and the API
// fuzzer check a call's cost with it (window_segments.h), not with a clock.
int64_t window_taps_evaluated();
#endif

// Planes per parallel task for a global kernel over `planes` planes of
// `plane_size` elements. With `vectors_of_planes` (GlobalMaxPool's CPU
// kernels, which reduce a vector's worth of planes at once when the call's
// plane count and this grain are multiples of it,
// generators/schedules/global_cpu_schedule.cpp): a multiple of the largest
// power of two, at most 16, that divides `planes`, so every target's vector
// width is served. The summing kernels go one plane at a time, and 16 planes
// of 120x120 get more than one task.
int64_t global_planes_per_task(int64_t plane_size, int64_t planes, bool vectors_of_planes,
                               const LaunchSettings& settings);

}  // namespace onnxpool::detail
