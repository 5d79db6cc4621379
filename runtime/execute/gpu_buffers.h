// Moving a kernel call's buffers to a GPU and back. Host tensors run on a GPU
// backend are uploaded (marked host-dirty, so Halide copies them before the
// kernel reads them) and the results copied back; CUDA device tensors are
// wrapped in place and stay on the device. On the CPU backend every step is
// a no-op.
#pragma once

#include <HalideRuntime.h>

#include <cstdint>
#include <vector>

#include "onnxpool/pooling.h"
#include "onnxpool/tensor.h"

namespace onnxpool::detail {

// Copies `bytes` bytes between CUDA device memory (of the primary context)
// and host memory, in order after the work already queued there. Halide
// error codes; 0 on success (halide_error_code_no_device_interface in a
// build without CUDA kernels).
int copy_cuda_to_host(void* user_context, const void* device, void* host, int64_t bytes);
int copy_host_to_cuda(void* user_context, const void* host, void* device, int64_t bytes);

class DeviceBinding {
 public:
  DeviceBinding(Backend backend, void* user_context) : backend_(backend), user_context_(user_context) {}
  DeviceBinding(const DeviceBinding&) = delete;
  DeviceBinding& operator=(const DeviceBinding&) = delete;
  // Frees the GPU copies of host tensors, detaches wrapped device memory.
  ~DeviceBinding();

  // `buffer` describes part of `tensor`, its host field holding the address
  // of that part (a device address for a CUDA device tensor). Halide error
  // codes; 0 on success.
  int bind_input(halide_buffer_t* buffer, const TensorView& tensor);
  int bind_output(halide_buffer_t* buffer, const TensorView& tensor);
  // After the kernel ran: host tensors get their results, device ones are
  // synchronized so the results are there when the call returns.
  int finish();

 private:
  int bind(halide_buffer_t* buffer, const TensorView& tensor);

  Backend backend_;
  void* user_context_;
  std::vector<halide_buffer_t*> bound_;
  std::vector<halide_buffer_t*> outputs_;
  std::vector<halide_buffer_t*> wrapped_;
};

}  // namespace onnxpool::detail
