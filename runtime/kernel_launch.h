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

// A scalar argument beyond the window attributes, matched by name. Only
// booleans so far; the kernel reads the value through a pointer to it.
struct ScalarArg {
  std::string name;
  bool value = false;
  static ScalarArg boolean(std::string n, bool v) { return ScalarArg{std::move(n), v}; }
};

struct KernelCall {
  const KernelEntry* kernel = nullptr;
  const WindowGeometry* geometry = nullptr;
  const TensorView* input = nullptr;
  std::vector<const TensorView*> outputs;  // in the kernel's output order
  std::vector<ScalarArg> scalars;
};

Status launch_window_kernel(const KernelCall& call);

}  // namespace onnxpool::detail
