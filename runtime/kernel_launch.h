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

// A scalar argument beyond the window attributes, matched by name.
struct ScalarArg {
  std::string name;
  enum class Kind { kBool, kInt32, kInt64, kFloat32 } kind;
  union {
    bool b;
    int32_t i32;
    int64_t i64;
    float f32;
  } value;
  static ScalarArg boolean(std::string n, bool v) {
    ScalarArg a{std::move(n), Kind::kBool, {}};
    a.value.b = v;
    return a;
  }
  static ScalarArg float32(std::string n, float v) {
    ScalarArg a{std::move(n), Kind::kFloat32, {}};
    a.value.f32 = v;
    return a;
  }
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
