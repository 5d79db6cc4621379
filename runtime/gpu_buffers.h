// Moving a kernel call's buffers to a GPU and back. Host tensors run on a GPU
// backend are uploaded (marked host-dirty, so Halide copies them before the
// kernel reads them) and the results copied back; CUDA device tensors are
// wrapped in place and stay on the device. On the CPU backend every step is
// a no-op.
#pragma once

#include <HalideRuntime.h>

#include <vector>

#include "onnxpool/pooling.h"
#include "onnxpool/tensor.h"

namespace onnxpool::detail {

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
