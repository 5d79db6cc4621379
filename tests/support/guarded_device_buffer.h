// CUDA device memory for one tensor, with guard bytes on both sides. Both
// the tensor and its guards start out as known byte patterns, so reading the
// whole allocation back shows a write outside the tensor's extent (the
// guards changed) as well as an element the kernel never wrote (it still
// holds the fill byte).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "support/cuda_driver.h"

namespace onnxpool_test {

class GuardedDeviceBuffer {
 public:
  // Wide enough for any vector store or tail a kernel could run past the
  // end with, and a multiple of the 256-byte alignment cuMemAlloc gives, so
  // with `misalignment` 0 the tensor is as aligned as a fresh allocation.
  static constexpr size_t kGuardBytes = 4096;
  static constexpr uint8_t kGuardByte = 0x5A;

  // Allocates room for `bytes` starting `misalignment` bytes past an aligned
  // address (a tensor that is a view into a larger allocation), fills the
  // tensor with `fill` and the guards with kGuardByte. Empty on success.
  onnxpool_cuda::CudaError create(size_t bytes, uint8_t fill, size_t misalignment = 0);

  // The tensor's device address, as a TensorView of Device::kCuda holds it.
  void* data() const { return reinterpret_cast<void*>(static_cast<uintptr_t>(tensor_address())); }
  size_t size() const { return bytes_; }

  onnxpool_cuda::CudaError upload(const void* host);
  onnxpool_cuda::CudaError download(void* host) const;
  // Reads the guards back: empty when every guard byte is intact, else where
  // the first changed byte is relative to the tensor (negative: before it).
  std::string guard_damage() const;

 private:
  uint64_t tensor_address() const { return memory_.address() == 0 ? 0 : memory_.address() + offset_; }

  onnxpool_cuda::DeviceAllocation memory_;
  size_t offset_ = 0;  // of the tensor within the allocation
  size_t bytes_ = 0;
};

}  // namespace onnxpool_test
