// Runs one windowed-pooling kernel over a whole tensor: builds the Halide
// buffers, fills the kernel's arguments by name from its metadata, picks the
// parallel grain, and splits the planes into calls whose buffers Halide's
// 32-bit addressing can reach.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernel_registry.h"
#include "onnxpool/status.h"
#include "onnxpool/tensor.h"
#include "window_geometry.h"

namespace onnxpool::detail {

// A scalar argument beyond the window attributes, matched by name: a bool
// or an int32 kernel argument, which the kernel reads through a pointer.
struct ScalarArg {
  std::string name;
  bool flag = false;
  int32_t number = 0;
  bool is_flag = true;

  static ScalarArg boolean(std::string n, bool v) { return ScalarArg{std::move(n), v, 0, true}; }
  static ScalarArg int32(std::string n, int32_t v) { return ScalarArg{std::move(n), false, v, false}; }
  const void* address() const { return is_flag ? static_cast<const void*>(&flag) : &number; }
};

struct KernelCall {
  const KernelEntry* kernel = nullptr;
  const WindowGeometry* geometry = nullptr;
  const TensorView* input = nullptr;
  std::vector<const TensorView*> outputs;  // in the kernel's output order
  std::vector<ScalarArg> scalars;
  // AveragePool: per ONNX spatial axis, the range [begin, end) of input
  // coordinates whose taps the divisor counts.
  std::vector<int64_t> count_begin, count_end;
};

// Runs a windowed kernel (spatial_rank 1 to 3) or, for a kernel with
// spatial_rank 0, a global one over the flattened planes.
Status launch_kernel(const KernelCall& call);

}  // namespace onnxpool::detail
