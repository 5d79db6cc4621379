#include "execute/gpu_buffers.h"

#include <algorithm>
#include <cstdint>

#if defined(ONNXPOOL_WITH_CUDA)
#include <HalideRuntimeCuda.h>
#endif

namespace onnxpool::detail {

namespace {

// One flat buffer of bytes over host memory and the wrapped device memory,
// copied one way, in chunks whose extents fit Halide's int32.
int copy_flat(void* user_context, uint64_t device, uint8_t* host, int64_t bytes, bool to_host) {
#if defined(ONNXPOOL_WITH_CUDA)
  constexpr int64_t kChunkBytes = int64_t{1} << 30;
  for (int64_t done = 0; done < bytes; done += kChunkBytes) {
    halide_dimension_t dim(0, static_cast<int32_t>(std::min(kChunkBytes, bytes - done)), 1);
    halide_buffer_t buffer{};
    buffer.type = halide_type_t(halide_type_uint, 8);
    buffer.dimensions = 1;
    buffer.dim = &dim;
    buffer.host = host + done;
    int rc = halide_cuda_wrap_device_ptr(user_context, &buffer, device + static_cast<uint64_t>(done));
    if (rc != 0) return rc;
    if (to_host) {
      buffer.flags |= halide_buffer_flag_device_dirty;
      rc = halide_copy_to_host(user_context, &buffer);
    } else {
      buffer.flags |= halide_buffer_flag_host_dirty;
      rc = halide_copy_to_device(user_context, &buffer, halide_cuda_device_interface());
      if (rc == 0) rc = halide_device_sync(user_context, &buffer);
    }
    const int detached = halide_cuda_detach_device_ptr(user_context, &buffer);
    if (rc != 0) return rc;
    if (detached != 0) return detached;
  }
  return 0;
#else
  (void)user_context, (void)device, (void)host, (void)bytes, (void)to_host;
  return halide_error_code_no_device_interface;
#endif
}

}  // namespace

int copy_cuda_to_host(void* user_context, const void* device, void* host, int64_t bytes) {
  return copy_flat(user_context, reinterpret_cast<uint64_t>(device), static_cast<uint8_t*>(host), bytes, true);
}

int copy_host_to_cuda(void* user_context, const void* host, void* device, int64_t bytes) {
  return copy_flat(user_context, reinterpret_cast<uint64_t>(device),
                   const_cast<uint8_t*>(static_cast<const uint8_t*>(host)), bytes, false);
}

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
  // the kernel reads garbage (docs/architecture.md, "The GPU path").
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
