#include "cuda_event_timer.h"

namespace onnxpool_bench {

using onnxpool_cuda::CudaDriver;
using onnxpool_cuda::CudaError;

CudaEventTimer::CudaEventTimer() {
  CudaDriver& cuda = CudaDriver::get();
  error_ = cuda.create_event(&start_);
  if (error_.empty()) error_ = cuda.create_event(&stop_);
}

CudaEventTimer::~CudaEventTimer() {
  CudaDriver& cuda = CudaDriver::get();
  if (start_ != nullptr) cuda.destroy_event(start_);
  if (stop_ != nullptr) cuda.destroy_event(stop_);
}

CudaError CudaEventTimer::start() {
  if (!error_.empty()) return error_;
  return CudaDriver::get().record_event(start_);
}

CudaError CudaEventTimer::stop(double* seconds) {
  if (!error_.empty()) return error_;
  CudaDriver& cuda = CudaDriver::get();
  CudaError error = cuda.record_event(stop_);
  if (error.empty()) error = cuda.wait_for_event(stop_);
  float milliseconds = 0.0f;
  if (error.empty()) error = cuda.elapsed_ms(start_, stop_, &milliseconds);
  *seconds = static_cast<double>(milliseconds) * 1e-3;
  return error;
}

}  // namespace onnxpool_bench
