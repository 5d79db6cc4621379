// GPU time between two CUDA events on stream 0, the stream onnxpool's
// kernels (Halide's CUDA runtime) and the driver calls here run on.
#pragma once

#include "support/cuda_driver.h"

namespace onnxpool_bench {

// start(), the work, stop(): the time from when the GPU reaches the first
// event (at once, when it is idle) to when it reaches the second, recorded
// after the work was issued (or, for a synchronous onnxpool call, after it
// returned). So it counts the host's set-up and launch of the work as well
// as the GPU's run of it, as an event pair around a PyTorch call does.
class CudaEventTimer {
 public:
  CudaEventTimer();
  ~CudaEventTimer();
  CudaEventTimer(const CudaEventTimer&) = delete;
  CudaEventTimer& operator=(const CudaEventTimer&) = delete;

  // Empty when the events exist.
  const onnxpool_cuda::CudaError& error() const { return error_; }
  onnxpool_cuda::CudaError start();
  // Waits for the second event; `seconds` is the time between the two.
  onnxpool_cuda::CudaError stop(double* seconds);

 private:
  void* start_ = nullptr;
  void* stop_ = nullptr;
  onnxpool_cuda::CudaError error_;
};

}  // namespace onnxpool_bench
