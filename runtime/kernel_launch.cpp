#include "kernel_launch.h"

#include <HalideRuntime.h>

#include <algorithm>
#include <cstring>
#include <limits>

#include "halide_glue.h"
#include "onnxpool/pooling.h"

namespace onnxpool::detail {
namespace {

constexpr int64_t kMaxBufferBytes = std::numeric_limits<int32_t>::max();
// Below this many output elements per task, waking a second thread costs more
// than it saves (the pool's wake-up is ~20 us on this VM, design.md §6).
constexpr int64_t kMinOutputsPerTask = 16 * 1024;
constexpr int kTasksPerThread = 4;

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

// A Halide view of planes [first, first + count) of a [N, C, spatial...] tensor
// whose spatial extents are `extents` (ONNX order). Halide's dimension 0 is
// the fastest-varying axis.
struct PlaneBuffer {
  halide_buffer_t buffer{};
  halide_dimension_t dims[4]{};

  PlaneBuffer(const TensorView& t, const std::vector<int64_t>& extents, int64_t first, int64_t count) {
    const int rank = static_cast<int>(extents.size());
    int64_t stride = 1;
    for (int i = 0; i < rank; ++i) {
      const int64_t extent = extents[rank - 1 - i];
      dims[i] = halide_dimension_t(0, static_cast<int32_t>(extent), static_cast<int32_t>(stride));
      stride *= extent;
    }
    dims[rank] = halide_dimension_t(0, static_cast<int32_t>(count), static_cast<int32_t>(stride));
    buffer.host = static_cast<uint8_t*>(t.data) + first * stride * static_cast<int64_t>(element_size(t.type));
    buffer.type = halide_type_of(t.type);
    buffer.dimensions = rank + 1;
    buffer.dim = dims;
  }
};

int64_t pick_rows_per_task(const WindowGeometry& g, int64_t planes) {
  const int rank = static_cast<int>(g.axes.size());
  const int64_t outputs = g.output_plane_size() * planes;
  const int64_t threads = num_threads();
  const int64_t tasks_wanted =
      std::max<int64_t>(1, std::min<int64_t>(threads * kTasksPerThread, outputs / kMinOutputsPerTask));
  if (rank == 1) return std::max<int64_t>(1, (planes + tasks_wanted - 1) / tasks_wanted);
  // Tasks are (a run of rows along ONNX's second-to-last axis) x (every other outer axis) x plane.
  const int64_t rows = g.axes[rank - 2].output;
  const int64_t outer = g.output_plane_size() / (rows * g.axes[rank - 1].output) * planes;
  const int64_t per_task = (rows * outer + tasks_wanted - 1) / tasks_wanted;
  return std::clamp<int64_t>(per_task, 1, std::max<int64_t>(rows, 1));
}

}  // namespace

Status launch_window_kernel(const KernelCall& call) {
  ensure_halide_configured();
  const WindowGeometry& g = *call.geometry;
  const PoolOp op = call.kernel->op;
  std::vector<int64_t> in_extents, out_extents;
  for (const AxisWindow& a : g.axes) {
    in_extents.push_back(a.input);
    out_extents.push_back(a.output);
  }
  const int64_t planes = g.planes();
  if (planes == 0 || g.output_plane_size() == 0) return Status::ok();

  int64_t plane_bytes = g.input_plane_size() * static_cast<int64_t>(element_size(call.input->type));
  for (const TensorView* out : call.outputs) {
    plane_bytes = std::max(plane_bytes, g.output_plane_size() * static_cast<int64_t>(element_size(out->type)));
  }
  if (plane_bytes > kMaxBufferBytes) {
    return Status::unsupported(std::string(op_name(op)) + ": one (n, c) plane of X or of an output takes " +
                               std::to_string(plane_bytes) +
                               " bytes; onnxpool's kernels address at most 2^31 - 1 bytes per plane");
  }
  const int64_t planes_per_call = std::min(planes, kMaxBufferBytes / plane_bytes);

  // Window attributes by Halide dimension: dimension i is ONNX spatial axis rank-1-i.
  const int rank = static_cast<int>(g.axes.size());
  std::vector<int32_t> window_values(4 * rank);
  std::vector<std::string> window_names(4 * rank);
  for (int i = 0; i < rank; ++i) {
    const AxisWindow& a = g.axes[rank - 1 - i];
    const std::string suffix = "_" + std::to_string(i);
    const int64_t values[] = {a.kernel, a.stride, a.dilation, a.pad_begin};
    const char* names[] = {"kernel", "stride", "dilation", "pad_begin"};
    for (int j = 0; j < 4; ++j) {
      window_names[4 * i + j] = names[j] + suffix;
      window_values[4 * i + j] = static_cast<int32_t>(values[j]);
    }
  }

  const halide_filter_metadata_t* meta = call.kernel->metadata();
  CallContext context;
  void* user_context = &context;
  for (int64_t first = 0; first < planes; first += planes_per_call) {
    const int64_t count = std::min(planes_per_call, planes - first);
    PlaneBuffer input(*call.input, in_extents, first, count);
    std::vector<PlaneBuffer> outputs;
    outputs.reserve(call.outputs.size());
    for (const TensorView* out : call.outputs) outputs.emplace_back(*out, out_extents, first, count);
    int32_t rows_per_task = static_cast<int32_t>(pick_rows_per_task(g, count));
    int64_t first_plane = first;

    std::vector<void*> args(meta->num_arguments, nullptr);
    size_t next_output = 0;
    for (int a = 0; a < meta->num_arguments; ++a) {
      const std::string name = meta->arguments[a].name;
      if (name == "__user_context") {
        args[a] = &user_context;
      } else if (name == "input") {
        args[a] = &input.buffer;
      } else if (meta->arguments[a].kind == halide_argument_kind_output_buffer) {
        if (next_output >= outputs.size()) return Status::internal(name + ": more kernel outputs than tensors");
        args[a] = &outputs[next_output++].buffer;
      } else if (name == "rows_per_task") {
        args[a] = &rows_per_task;
      } else if (name == "first_plane") {
        args[a] = &first_plane;
      } else {
        auto w = std::find(window_names.begin(), window_names.end(), name);
        if (w != window_names.end()) {
          args[a] = &window_values[w - window_names.begin()];
          continue;
        }
        for (const ScalarArg& s : call.scalars) {
          if (s.name == name) args[a] = const_cast<void*>(static_cast<const void*>(&s.value));
        }
        if (args[a] == nullptr) return Status::internal("kernel argument '" + name + "' has no value");
      }
    }
    const int rc = call.kernel->run(args.data());
    if (rc != 0) {
      return Status::internal(std::string(op_name(op)) + ": kernel failed (Halide error " + std::to_string(rc) +
                              "): " + context.error);
    }
  }
  return Status::ok();
}

}  // namespace onnxpool::detail
