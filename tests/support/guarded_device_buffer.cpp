#include "support/guarded_device_buffer.h"

#include <vector>

namespace onnxpool_test {

using onnxpool_cuda::CudaDriver;
using onnxpool_cuda::CudaError;

CudaError GuardedDeviceBuffer::create(size_t bytes, uint8_t fill, size_t misalignment) {
  CudaDriver& cuda = CudaDriver::get();
  bytes_ = bytes;
  offset_ = kGuardBytes + misalignment;
  CudaError error = memory_.create(offset_ + bytes + kGuardBytes);
  if (error.empty()) error = cuda.fill(memory_.address(), kGuardByte, memory_.size());
  if (error.empty() && bytes > 0) error = cuda.fill(tensor_address(), fill, bytes);
  // cuMemsetD8 may return before it is done; the kernel is ordered after it
  // on stream 0 anyway, but a failure should show here, not in the kernel.
  if (error.empty()) error = cuda.synchronize();
  return error;
}

CudaError GuardedDeviceBuffer::upload(const void* host) {
  if (bytes_ == 0) return CudaError();
  return CudaDriver::get().copy_to_device(tensor_address(), host, bytes_);
}

CudaError GuardedDeviceBuffer::download(void* host) const {
  if (bytes_ == 0) return CudaError();
  return CudaDriver::get().copy_to_host(host, tensor_address(), bytes_);
}

std::string GuardedDeviceBuffer::guard_damage() const {
  std::vector<uint8_t> all(memory_.size());
  const CudaError error = CudaDriver::get().copy_to_host(all.data(), memory_.address(), all.size());
  if (!error.empty()) return "cannot read the guards back: " + error;
  for (size_t i = 0; i < all.size(); ++i) {
    const bool in_tensor = i >= offset_ && i < offset_ + bytes_;
    if (in_tensor || all[i] == kGuardByte) continue;
    const long long relative = static_cast<long long>(i) - static_cast<long long>(offset_);
    return "guard byte at offset " + std::to_string(relative) + " from the tensor's start (tensor " +
           std::to_string(bytes_) + " bytes) was overwritten";
  }
  return std::string();
}

}  // namespace onnxpool_test
