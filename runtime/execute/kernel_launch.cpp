#include "api/call_guard.h"
#include "execute/kernel_launch.h"

#include <HalideRuntime.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>

#include "dispatch/backend.h"
#include "execute/element_boxes.h"
#include "execute/gpu_buffers.h"
#include "execute/half_widening.h"
#include "platform/halide_glue.h"
#include "execute/large_planes.h"
#include "onnxpool/pooling.h"

namespace onnxpool::detail {
namespace {

halide_type_t halide_type_of(ElementType t) {
  switch (t) {
    case ElementType::kFloat32: return halide_type_t(halide_type_float, 32);
    case ElementType::kFloat64: return halide_type_t(halide_type_float, 64);
    case ElementType::kFloat16: return halide_type_t(halide_type_float, 16);
    case ElementType::kBFloat16: return halide_type_t(halide_type_bfloat, 16);
    case ElementType::kInt8: return halide_type_t(halide_type_int, 8);
    case ElementType::kUInt8: return halide_type_t(halide_type_uint, 8);
    case ElementType::kInt64: return halide_type_t(halide_type_int, 64);
  }
  return halide_type_t();
}

// Spatial axes a kernel's plane has at most (Halide order), and its extents
// or strides in a fixed array: a launch makes no heap allocation, so the
// later launches of a call (pieces of a large plane, groups of planes) run
// after Y was written without asking the system for memory.
constexpr int kMaxRank = kMaxWindowedRank;
struct PlaneAxes {
  int64_t values[kMaxRank + 1] = {};  // the plane's stride last, for strides
  int count = 0;                      // 0 for strides: dense
  void push(int64_t v) { values[count++] = v; }
};

// A Halide view of planes [first, first + count) of a tensor whose planes
// hold `extents` elements each, in Halide order (fastest-varying first; none
// for one value per plane). The plane axis comes last. `strides` (the same
// order, the plane's last) place a box inside a larger tensor; none: dense.
struct PlaneBuffer {
  halide_buffer_t buffer{};
  halide_dimension_t dims[kMaxRank + 1]{};

  PlaneBuffer(const TensorView& t, const PlaneAxes& extents, const PlaneAxes& strides, int64_t first,
              int64_t count) {
    const int rank = extents.count;
    const bool dense = strides.count == 0;
    int64_t stride = 1;
    for (int i = 0; i < rank; ++i) {
      if (!dense) stride = strides.values[i];
      dims[i] = halide_dimension_t(0, static_cast<int32_t>(extents.values[i]), static_cast<int32_t>(stride));
      stride *= extents.values[i];
    }
    if (!dense) stride = strides.values[rank];
    dims[rank] = halide_dimension_t(0, static_cast<int32_t>(count), static_cast<int32_t>(stride));
    buffer.host = static_cast<uint8_t*>(t.data) + first * stride * static_cast<int64_t>(element_size(t.type));
    buffer.type = halide_type_of(t.type);
    buffer.dimensions = rank + 1;
    buffer.dim = dims;
  }
};

// A call's ONNX-order strides (spatial axes, then the plane) in Halide order.
PlaneAxes halide_order(const AxisStrides& onnx_strides) {
  PlaneAxes strides;
  if (onnx_strides.empty()) return strides;
  for (size_t i = onnx_strides.size() - 1; i-- > 0;) strides.push(onnx_strides[i]);
  strides.push(onnx_strides.back());
  return strides;
}

#ifdef ONNXPOOL_TEST_HOOKS
std::atomic<int64_t> taps_evaluated{0};
#endif

int64_t tasks_wanted(int64_t work, int64_t min_work_per_task, const LaunchSettings& settings) {
  return std::max<int64_t>(
      1, std::min<int64_t>(int64_t{settings.threads} * settings.knobs->tasks_per_thread, work / min_work_per_task));
}

int64_t pick_rows_per_task(const WindowGeometry& g, int64_t planes, bool buffers_rows, const LaunchSettings& settings) {
  const int rank = static_cast<int>(g.axes.size());
  const int64_t tasks =
      tasks_wanted(g.output_plane_size() * planes, settings.knobs->min_outputs_per_task, settings);
  // A 1D task's row buffer holds its planes' whole padded rows.
  const int64_t most_rows = max_rows_per_task(g.axes[rank - 1]);
  if (rank == 1) return std::clamp<int64_t>((planes + tasks - 1) / tasks, 1, most_rows);
  // Tasks are (a run of rows along ONNX's second-to-last axis) x (every other outer axis) x plane.
  const int64_t rows = g.axes[rank - 2].output;
  const int64_t outer = g.output_plane_size() / (rows * g.axes[rank - 1].output) * planes;
  const int64_t per_task = (rows * outer + tasks - 1) / tasks;
  const int64_t cap = buffers_rows ? std::min(most_rows, settings.rows_cap) : most_rows;
  return std::clamp<int64_t>(per_task, 1, std::max<int64_t>(std::min(rows, cap), 1));
}

// Whether a call's tasks take the row cap (max_rows_per_task): the separable
// kernels' float32 and float64 calls without Indices (the halving kernels
// keep no row buffer); 16-bit and Indices calls were slower with it
// (docs/design-decisions.md, "Thread pool and task shares").
bool rows_capped(const KernelCall& call) {
  return call.kernel->variant != KernelVariant::kHalving && call.outputs.size() == 1 &&
         element_size(call.input->type) >= 4;
}

// Planes per task for kernels that split by planes only (flat-plane and global).
int64_t pick_planes_per_task(int64_t plane_size, int64_t planes, const LaunchSettings& settings) {
  const int64_t tasks = tasks_wanted(plane_size * planes, settings.knobs->min_inputs_per_task, settings);
  return std::max<int64_t>(1, (planes + tasks - 1) / tasks);
}

// The widest vector of planes a CPU global kernel reduces at once: its
// partials per plane, at most 16 (generators/schedules/x86_tiling.cpp,
// arm_tiling.cpp).
constexpr int64_t kWidestGlobalBlock = 16;

// Where each of a kernel's arguments comes from, worked out once per kernel
// from its metadata so a call does no string matching.
struct ArgumentSlot {
  enum class Source { kUserContext, kInput, kOutput, kWindow, kGrain, kFirstPlane, kScalar } source;
  int index = 0;       // output number, window value number (kWindowFields * dim + field)
  std::string name;    // kScalar: matched against KernelCall::scalars by name
};

struct ArgumentPlan {
  std::vector<ArgumentSlot> slots;
};

const char* const kWindowFields[] = {"kernel_", "stride_", "dilation_", "pad_begin_", "count_begin_", "count_end_"};
constexpr int kWindowFieldCount = sizeof(kWindowFields) / sizeof(kWindowFields[0]);

ArgumentPlan make_plan(const KernelEntry& kernel) {
  ArgumentPlan plan;
  const halide_filter_metadata_t* meta = kernel.metadata[0]();  // every target has the same arguments
  int outputs = 0;
  for (int a = 0; a < meta->num_arguments; ++a) {
    const std::string name = meta->arguments[a].name;
    ArgumentSlot slot{ArgumentSlot::Source::kScalar, 0, name};
    if (name == "__user_context") {
      slot.source = ArgumentSlot::Source::kUserContext;
    } else if (name == "input") {
      slot.source = ArgumentSlot::Source::kInput;
    } else if (meta->arguments[a].kind == halide_argument_kind_output_buffer) {
      slot.source = ArgumentSlot::Source::kOutput;
      slot.index = outputs++;
    } else if (name == "rows_per_task" || name == "planes_per_task") {
      slot.source = ArgumentSlot::Source::kGrain;
    } else if (name == "first_plane") {
      slot.source = ArgumentSlot::Source::kFirstPlane;
    } else {
      for (int field = 0; field < kWindowFieldCount; ++field) {
        const std::string prefix = kWindowFields[field];
        if (name.compare(0, prefix.size(), prefix) == 0 && name.size() == prefix.size() + 1 &&
            name.back() >= '0' && name.back() < '0' + kernel.spatial_rank) {
          slot.source = ArgumentSlot::Source::kWindow;
          slot.index = kWindowFieldCount * (name.back() - '0') + field;
        }
      }
    }
    plan.slots.push_back(slot);
  }
  return plan;
}

const ArgumentPlan& plan_for(const KernelEntry& kernel) {
  // Built once, for every kernel, on first use; read-only afterwards.
  static const std::vector<ArgumentPlan> plans = [] {
    std::vector<ArgumentPlan> all;
    for (size_t i = 0; i < kernel_count(); ++i) all.push_back(make_plan(kernel_at(i)));
    return all;
  }();
  return plans[kernel_index(kernel)];
}

constexpr int kMaxArguments = 64;

// A GPU call that failed: most often no driver or no device, which Halide's
// runtime reports in its error text; a device that refused memory is a
// resource failure of this call, like a refused host buffer.
Status gpu_failure(PoolOp op, Backend backend, const CallContext& context, int rc) {
  const std::string text = context.error.empty() ? std::string("no error text from Halide") : context.error;
  if (rc == halide_error_code_device_malloc_failed) {
    return Status::internal(std::string(op_name(op)) + ": out of memory on the " + backend_name(backend) +
                            " device: " + text);
  }
  return Status::unsupported(std::string(op_name(op)) + ": the " + backend_name(backend) + " backend failed: " + text);
}

}  // namespace

int64_t global_planes_per_task(int64_t plane_size, int64_t planes, bool vectors_of_planes,
                               const LaunchSettings& settings) {
  const int64_t per_task = pick_planes_per_task(plane_size, planes, settings);
  if (!vectors_of_planes) return per_task;
  int64_t block = 1;
  while (block < kWidestGlobalBlock && planes % (block * 2) == 0) block *= 2;
  return (per_task + block - 1) / block * block;
}

static Status launch_on_target(const KernelCall& call);
static Status launch_widened_dense(const KernelCall& call);

// A call on boxes inside larger tensors (window_segments.h), for widening,
// which copies its tensors as dense ones: the same call on dense copies of
// the boxes, its outputs copied back into theirs.
static Status launch_on_dense_copies(const KernelCall& call) {
  const WindowGeometry& g = *call.geometry;
  std::vector<int64_t> in_extents, out_extents;
  for (const AxisWindow& a : g.axes) {
    in_extents.push_back(a.input);
    out_extents.push_back(a.output);
  }
  const std::vector<int64_t> dense_in = dense_strides(in_extents), dense_out = dense_strides(out_extents);
  const std::vector<int64_t> in_strides = call.input_strides.empty() ? dense_in : call.input_strides.to_vector();
  const std::vector<int64_t> out_strides = call.output_strides.empty() ? dense_out : call.output_strides.to_vector();
  const int64_t planes = g.planes();
  // Copies a box's elements between two layouts of it, `bytes` each.
  const auto copy_box = [planes](const std::vector<int64_t>& extents, size_t bytes, const void* from,
                                 const std::vector<int64_t>& from_strides, void* to,
                                 const std::vector<int64_t>& to_strides) {
    for_each_in_box(planes, extents, [&](int64_t plane, const std::vector<int64_t>& at) {
      std::memcpy(static_cast<uint8_t*>(to) + offset_of(plane, at, to_strides) * static_cast<int64_t>(bytes),
                  static_cast<const uint8_t*>(from) + offset_of(plane, at, from_strides) * static_cast<int64_t>(bytes),
                  bytes);
    });
  };
  note_host_allocation();  // the dense copies
  const size_t in_bytes = element_size(call.input->type);
  std::vector<uint8_t> input_copy(static_cast<size_t>(planes * dense_in.back()) * in_bytes);
  copy_box(in_extents, in_bytes, call.input->data, in_strides, input_copy.data(), dense_in);
  const TensorView input(input_copy.data(), call.input->type, call.input->shape, Device::kHost);
  KernelCall dense = call;
  dense.input = &input;
  dense.input_strides.clear();
  dense.output_strides.clear();
  std::vector<std::vector<uint8_t>> output_copies(call.outputs.size());
  std::vector<TensorView> outputs;
  outputs.reserve(call.outputs.size());  // dense.outputs points into it
  for (size_t k = 0; k < call.outputs.size(); ++k) {
    const TensorView& out = *call.outputs[k];
    output_copies[k].resize(static_cast<size_t>(planes * dense_out.back()) * element_size(out.type));
    outputs.emplace_back(output_copies[k].data(), out.type, out.shape, Device::kHost);
    dense.outputs[k] = &outputs.back();
  }
  const Status s = launch_widened_dense(dense);
  if (!s) return s;
  for (size_t k = 0; k < call.outputs.size(); ++k) {
    copy_box(out_extents, element_size(call.outputs[k]->type), output_copies[k].data(), dense_out,
             call.outputs[k]->data, out_strides);
  }
  return Status::ok();
}

// A target without 16-bit float kernels (OpenCL without cl_half): the
// float32 kernel of the same operator, rank and variant on widened copies
// of dense tensors. The variant chosen for a 16-bit type is valid for
// float32 too (LpPool: their unscaled ranges of p are within float32's).
static Status launch_widened_dense(const KernelCall& call) {
  const KernelEntry* wide = widened_kernel(*call.kernel, call.input->type);
  if (wide == nullptr || call.input->device != Device::kHost) {
    return Status::internal(std::string(op_name(call.kernel->op)) + ": a widened launch the planner did not allow");
  }
  const WidenedTensor input(*call.input, /*copy_values=*/true);
  std::vector<WidenedTensor> widened_outputs;
  widened_outputs.reserve(call.outputs.size());
  KernelCall widened = call;
  widened.kernel = wide;
  widened.input = &input.view();
  for (size_t i = 0; i < call.outputs.size(); ++i) {
    if (!is_half_type(call.outputs[i]->type)) continue;  // Indices stay int64
    widened_outputs.emplace_back(*call.outputs[i], /*copy_values=*/false);
    widened.outputs[i] = &widened_outputs.back().view();
  }
  const Status s = launch_on_target(widened);
  if (!s) return s;
  size_t next = 0;
  for (const TensorView* out : call.outputs) {
    if (is_half_type(out->type)) widened_outputs[next++].narrow_into(*out);
  }
  return Status::ok();
}

#ifdef ONNXPOOL_TEST_HOOKS
int64_t window_taps_evaluated() { return taps_evaluated.load(std::memory_order_relaxed); }
#endif

int64_t windowed_tasks_wanted(const WindowGeometry& g, const LaunchSettings& settings) {
  return tasks_wanted(g.output_plane_size() * g.planes(), settings.knobs->min_outputs_per_task, settings);
}

const KernelEntry* widened_kernel(const KernelEntry& kernel, ElementType type) {
  if (!is_half_type(type)) return nullptr;
  return find_kernel(kernel.op, ElementType::kFloat32, kernel.spatial_rank, kernel.variant);
}

Status check_row_buffer(PoolOp op, const WindowGeometry& g) {
  const int rank = static_cast<int>(g.axes.size());
  if (rank == 0 || !row_buffer_too_large(g.axes[rank - 1])) return Status::ok();
  return Status::unsupported(std::string(op_name(op)) + ": the windows on spatial axis " + std::to_string(rank - 1) +
                             " span " +
                             std::to_string(static_cast<int64_t>(std::min<__int128>(
                                 row_buffer_positions(g.axes[rank - 1]), std::numeric_limits<int64_t>::max()))) +
                             " positions, padding included (from 'kernel_shape', 'strides', 'dilations' and "
                             "'pads'), and no cut of the call bounds them; onnxpool's kernels buffer a span in up "
                             "to 2^31 bytes");
}

Status launch_kernel(const KernelCall& call) {
  if (call.target < 0 || static_cast<size_t>(call.target) >= target_count() || call.settings.knobs == nullptr) {
    return Status::internal("launch_kernel: a call without a planned target");
  }
  if (call.kernel->run[call.target] != nullptr) return launch_on_target(call);
  // Widening copies tensors as dense ones.
  if (!call.input_strides.empty() || !call.output_strides.empty()) return launch_on_dense_copies(call);
  return launch_widened_dense(call);
}

static Status launch_on_target(const KernelCall& call) {
  ensure_halide_configured();
  const WindowGeometry& g = *call.geometry;
  const PoolOp op = call.kernel->op;
  const bool global = call.kernel->spatial_rank == 0;
  // Flat-plane kernels see each plane as one flat axis, in and out alike.
  const bool flat = call.kernel->variant == KernelVariant::kFlatPlane;
  const int rank = static_cast<int>(g.axes.size());
  if ((!global && rank > kMaxRank) || call.outputs.size() > 2 || call.input_strides.size() > kMaxRank + 1 ||
      call.output_strides.size() > kMaxRank + 1) {
    return Status::internal("launch_kernel: unexpected shape");
  }
  // Per-plane extents in Halide order (fastest first). Global kernels see one
  // flat axis in and one value per plane out.
  PlaneAxes in_extents, out_extents;
  if (global) {
    in_extents.push(g.input_plane_size());
  } else if (flat) {
    in_extents.push(g.input_plane_size());
    out_extents.push(g.output_plane_size());
  } else {
    for (int i = rank - 1; i >= 0; --i) {
      in_extents.push(g.axes[i].input);
      out_extents.push(g.axes[i].output);
    }
  }
  const int64_t planes = g.planes();
  if (planes == 0 || g.output_plane_size() == 0) return Status::ok();

  const bool strided = !call.input_strides.empty() || !call.output_strides.empty();
  if ((global || flat) && strided) return Status::internal("launch_kernel: a strided box for a flat kernel");
  if (!global && !flat) {
    const Status rows = check_row_buffer(op, g);
    if (!rows) return rows;
  }
  int64_t plane_bytes = (call.input_strides.empty() ? g.input_plane_size() : call.input_strides.back()) *
                        static_cast<int64_t>(element_size(call.input->type));
  for (const TensorView* out : call.outputs) {
    plane_bytes = std::max(plane_bytes, (call.output_strides.empty() ? g.output_plane_size()
                                                                     : call.output_strides.back()) *
                                            static_cast<int64_t>(element_size(out->type)));
  }
#ifdef ONNXPOOL_TEST_HOOKS
  if (!global) {
    __int128 taps = __int128{planes} * g.output_plane_size();
    for (const AxisWindow& a : g.axes) taps = std::min<__int128>(taps * a.kernel, std::numeric_limits<int64_t>::max());
    taps_evaluated.fetch_add(static_cast<int64_t>(taps), std::memory_order_relaxed);
  }
#endif
  // Every buffer's byte offsets and the plane count itself must fit int32.
  const int64_t planes_per_call = std::min(planes, max_kernel_buffer_bytes() / plane_bytes);
  // Dense calls that pass it went to pieces above; a strided box inside a
  // plane that large has no piece path.
  if (planes_per_call < 1) return Status::internal("launch_kernel: a strided box in a plane past one kernel buffer");

  // Window attributes by Halide dimension: dimension i is ONNX spatial axis rank-1-i.
  int32_t window_values[kWindowFieldCount * kMaxRank] = {};
  for (int i = 0; i < rank && !global; ++i) {
    const int axis = rank - 1 - i;
    const AxisWindow& a = g.axes[axis];
    int32_t* v = &window_values[kWindowFieldCount * i];
    v[0] = static_cast<int32_t>(a.kernel);
    v[1] = static_cast<int32_t>(a.stride);
    v[2] = static_cast<int32_t>(a.dilation);
    v[3] = static_cast<int32_t>(a.pad_begin);
    if (!call.count_begin.empty()) {
      // Every tap position fits int32 here (needs_pieces), so clamping the
      // counting range there changes no count.
      constexpr int64_t lo = std::numeric_limits<int32_t>::min(), hi = std::numeric_limits<int32_t>::max();
      v[4] = static_cast<int32_t>(std::clamp(call.count_begin[axis], lo, hi));
      v[5] = static_cast<int32_t>(std::clamp(call.count_end[axis], lo, hi));
    }
  }

  const int target = call.target;
  const Backend backend = target_info(static_cast<size_t>(target)).backend;
  const ArgumentPlan& plan = plan_for(*call.kernel);
  if (plan.slots.size() > kMaxArguments) return Status::internal("kernel has too many arguments");
  CallContext context;
  void* user_context = &context;
  // GlobalMaxPool's CPU kernels reduce whole vectors of planes at once; a
  // plane count off a multiple of the widest such vector runs as that
  // multiple, then a call for the rest, so only the rest goes one plane at
  // a time (docs/design-decisions.md, "Global pools: vectors of planes,
  // unrolled 7x7 and 14x14").
  const bool split_off_odd_planes = op == PoolOp::kGlobalMaxPool && backend == Backend::kCpu;
  const PlaneAxes in_strides = halide_order(call.input_strides);
  const PlaneAxes out_strides = halide_order(call.output_strides);
  int64_t count = 0;
  for (int64_t first = 0; first < planes; first += count) {
    count = std::min(planes_per_call, planes - first);
    if (split_off_odd_planes && count > kWidestGlobalBlock) count -= count % kWidestGlobalBlock;
    PlaneBuffer input(*call.input, in_extents, in_strides, first, count);
    PlaneBuffer output0(*call.outputs[0], out_extents, out_strides, first, count);
    PlaneBuffer output1(call.outputs.size() > 1 ? *call.outputs[1] : *call.outputs[0], out_extents, out_strides,
                        first, count);
    halide_buffer_t* outputs[2] = {&output0.buffer, &output1.buffer};
    // Declared after the buffers, so it releases their GPU copies before they go.
    DeviceBinding binding(backend, user_context);
    int64_t wanted = global ? global_planes_per_task(g.input_plane_size(), count, split_off_odd_planes, call.settings)
                     : flat ? pick_planes_per_task(g.input_plane_size(), count, call.settings)
                            : pick_rows_per_task(g, count, rows_capped(call), call.settings);
    // A windowed task's scratch grows with its grain (scratch_allocator.h).
    if (!global) wanted = context.scratch.pool().grain_for(&call.kernel->run[target], wanted);
    int32_t grain = static_cast<int32_t>(wanted);
    int64_t first_plane = first;

    void* args[kMaxArguments];
    for (size_t a = 0; a < plan.slots.size(); ++a) {
      const ArgumentSlot& slot = plan.slots[a];
      switch (slot.source) {
        case ArgumentSlot::Source::kUserContext: args[a] = &user_context; break;
        case ArgumentSlot::Source::kInput:
          args[a] = &input.buffer;
          if (const int rc = binding.bind_input(&input.buffer, *call.input); rc != 0) {
            return gpu_failure(op, backend, context, rc);
          }
          break;
        case ArgumentSlot::Source::kOutput:
          if (slot.index >= static_cast<int>(call.outputs.size())) {
            return Status::internal("kernel argument '" + slot.name + "' has no output tensor");
          }
          args[a] = outputs[slot.index];
          if (const int rc = binding.bind_output(outputs[slot.index], *call.outputs[slot.index]); rc != 0) {
            return gpu_failure(op, backend, context, rc);
          }
          break;
        case ArgumentSlot::Source::kWindow: args[a] = &window_values[slot.index]; break;
        case ArgumentSlot::Source::kGrain: args[a] = &grain; break;
        case ArgumentSlot::Source::kFirstPlane: args[a] = &first_plane; break;
        case ArgumentSlot::Source::kScalar: {
          const ScalarArg* scalar = call.scalar(slot.name.c_str());
          if (scalar == nullptr) return Status::internal("kernel argument '" + slot.name + "' has no value");
          args[a] = const_cast<void*>(scalar->address());
          break;
        }
      }
    }
    const int rc = call.kernel->run[target](args);
    if (rc != 0 && backend != Backend::kCpu) return gpu_failure(op, backend, context, rc);
    if (rc != 0) {
      return Status::internal(std::string(op_name(op)) + ": kernel failed (Halide error " + std::to_string(rc) +
                              "): " + context.error);
    }
    if (const int finished = binding.finish(); finished != 0) return gpu_failure(op, backend, context, finished);
  }
  return Status::ok();
}

}  // namespace onnxpool::detail
