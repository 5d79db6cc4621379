// onnxpool on one benchmark case with CUDA device tensors (Device::kCuda):
// X, the case's test input, uploaded once; Y (and Indices) allocated once.
// run() is one onnxpool::pool call, which returns when the GPU is done.
#pragma once

#include <string>

#include <onnxpool/onnxpool.h>

#include "shapes.h"
#include "support/cuda_driver.h"

namespace onnxpool_bench {

class CudaPoolRunner {
 public:
  // Sets everything up and checks one run's output against the reference
  // (test_data.h, the CPU benchmark's check): a wrong result is an error,
  // never a number.
  CudaPoolRunner(const PoolOpSpec& op, const PoolCase& pool_case, bool with_indices);

  // Non-empty when setup, the check or the last run failed.
  const std::string& error() const { return error_; }
  bool run();

 private:
  std::string check_output() const;

  const PoolOpSpec& op_;
  const PoolCase& case_;
  bool with_indices_;
  onnxpool::PoolAttributes attributes_;
  onnxpool_cuda::DeviceAllocation x_memory_, y_memory_, indices_memory_;
  onnxpool::TensorView x_, y_, indices_;
  std::string error_;
};

}  // namespace onnxpool_bench
