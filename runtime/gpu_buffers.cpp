#include "gpu_buffers.h"

#include <cstdint>

#if defined(ONNXPOOL_WITH_CUDA)
#include <HalideRuntimeCuda.h>
#endif

namespace onnxpool::detail {

int DeviceBinding::bind(halide_buffer_t* buffer, const TensorView& tensor) {
  if (backend_ == Backend::kCpu) return 0;
  bound_.push_back(buffer);
  if (tensor.device == Device::kCuda) {
#if defined(ONNXPOOL_WITH_CUDA)
    const auto device_address = reinterpret_cast<uint64_t>(buffer->host);
    buffer->host = nullptr;
    const int rc = halide_cuda_wrap_device_ptr(user_context_, buffer, device_address);
    if (rc == 0) wrapped_.push_back(buffer);
    return rc;
#else
    return halide_error_code_no_device_interface;
#endif
  }
  return 0;
}

int DeviceBinding::bind_input(halide_buffer_t* buffer, const TensorView& tensor) {
  const int rc = bind(buffer, tensor);
  // Without this flag Halide assumes the (empty) device copy is current and
  // the kernel reads garbage (design.md section 5).
  if (rc == 0 && backend_ != Backend::kCpu && tensor.device == Device::kHost) {
    buffer->flags |= halide_buffer_flag_host_dirty;
  }
  return rc;
}

int DeviceBinding::bind_output(halide_buffer_t* buffer, const TensorView& tensor) {
  const int rc = bind(buffer, tensor);
  if (rc == 0 && backend_ != Backend::kCpu) outputs_.push_back(buffer);
  return rc;
}

int DeviceBinding::finish() {
  for (halide_buffer_t* out : outputs_) {
    const bool on_device = out->host == nullptr;
    const int rc = on_device ? halide_device_sync(user_context_, out) : halide_copy_to_host(user_context_, out);
    if (rc != 0) return rc;
  }
  return 0;
}

DeviceBinding::~DeviceBinding() {
#if defined(ONNXPOOL_WITH_CUDA)
  for (halide_buffer_t* buffer : wrapped_) halide_cuda_detach_device_ptr(user_context_, buffer);
#endif
  for (halide_buffer_t* buffer : bound_) {
    if (buffer->device != 0 && buffer->host != nullptr) halide_device_free(user_context_, buffer);
  }
}

}  // namespace onnxpool::detail
