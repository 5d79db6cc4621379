// Makes the runtime take the kernels' buffers to be at most `bytes` large
// (runtime/execute/large_planes.h), so small tensors run in pieces, and restores the
// real limit however a test ends (0: the real one). For white-box tests that
// see the runtime's headers.
#pragma once

#include <cstdint>

#include "execute/large_planes.h"

namespace onnxpool_test {

struct KernelBufferLimit {
  explicit KernelBufferLimit(int64_t bytes) { set(bytes); }
  ~KernelBufferLimit() { set(0); }
  void set(int64_t bytes) { onnxpool::detail::set_max_kernel_buffer_bytes_for_testing(bytes); }
};

}  // namespace onnxpool_test
