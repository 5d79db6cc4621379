// The CUDA driver calls the CUDA tests and the GPU benchmark make themselves
// (allocating, copying, timing), loaded at run time with dlopen("libcuda.so.1"):
// nothing links against CUDA, so these programs build where there is no
// CUDA, and run there they fail saying what is missing.
//
// They work in the device's primary context, as the library does
// (runtime/execute/cuda_context.cpp) and as the CUDA runtime API, PyTorch and
// onnxruntime do, so their device pointers are what an application would
// hand onnxpool. Every call is on the legacy default stream (0), the one
// Halide's CUDA runtime launches on, so copies, kernels and events are
// ordered with onnxpool's work.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace onnxpool_cuda {

// Empty on success, else which call failed and its CUresult, in words.
using CudaError = std::string;

struct DriverApi;  // the driver's functions, as loaded

class CudaDriver {
 public:
  // The process's driver, loaded on first use: device HL_GPU_DEVICE (0 when
  // unset, as in the library), its primary context retained for the life of
  // the process and made current on the calling thread.
  static CudaDriver& get();

  // False when the driver library, a symbol, the device or its context is
  // missing; failure() then says which, and every call below fails with it.
  bool ok() const { return failure_.empty(); }
  const std::string& failure() const { return failure_; }
  // "NVIDIA H200, compute capability 9.0, 139 GiB" or so.
  const std::string& device_description() const { return description_; }

  // The primary context on the calling thread (needed once per thread).
  CudaError make_current();

  CudaError allocate(size_t bytes, uint64_t* address);
  CudaError release(uint64_t address);
  CudaError copy_to_device(uint64_t destination, const void* source, size_t bytes);
  CudaError copy_to_host(void* destination, uint64_t source, size_t bytes);
  CudaError copy_on_device(uint64_t destination, uint64_t source, size_t bytes);
  CudaError fill(uint64_t destination, uint8_t byte, size_t bytes);
  CudaError synchronize();

  // Events on stream 0, for timing what runs between two of them.
  CudaError create_event(void** event);
  CudaError destroy_event(void* event);
  CudaError record_event(void* event);
  CudaError wait_for_event(void* event);
  CudaError elapsed_ms(void* start, void* end, float* milliseconds);

  CudaDriver(const CudaDriver&) = delete;
  CudaDriver& operator=(const CudaDriver&) = delete;

 private:
  CudaDriver();
  CudaError check(const char* call, int result) const;

  const DriverApi* api_ = nullptr;
  void* context_ = nullptr;
  std::string failure_;
  std::string description_;
};

// Device memory owned for a scope: cuMemAlloc'ed by create(), freed on
// destruction.
class DeviceAllocation {
 public:
  DeviceAllocation() = default;
  DeviceAllocation(const DeviceAllocation&) = delete;
  DeviceAllocation& operator=(const DeviceAllocation&) = delete;
  ~DeviceAllocation();

  CudaError create(size_t bytes);
  uint64_t address() const { return address_; }
  size_t size() const { return bytes_; }

 private:
  uint64_t address_ = 0;
  size_t bytes_ = 0;
};

}  // namespace onnxpool_cuda
