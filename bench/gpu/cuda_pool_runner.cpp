#include "cuda_pool_runner.h"

#include <cstdint>
#include <vector>

#include "onnxpool_attributes.h"
#include "test_data.h"

namespace onnxpool_bench {
namespace {

// Sums (average, Lp) are added up in a different order on the GPU; a max is
// exact. The CPU benchmark's tolerances (pool_bench.cpp).
constexpr double kRelTolerance = 1e-5;
constexpr double kAbsTolerance = 1e-6;

void* device_pointer(const onnxpool_cuda::DeviceAllocation& memory) {
  return reinterpret_cast<void*>(static_cast<uintptr_t>(memory.address()));
}

}  // namespace

CudaPoolRunner::CudaPoolRunner(const PoolOpSpec& op, const PoolCase& pc, bool with_indices)
    : op_(op), case_(pc), with_indices_(with_indices) {
  onnxpool_cuda::CudaDriver& cuda = onnxpool_cuda::CudaDriver::get();
  if (!cuda.ok()) {
    error_ = cuda.failure();
    return;
  }
  const onnxpool::Status status = onnxpool_case_attributes(op, pc, &attributes_);
  if (!status) {
    error_ = status.message();
    return;
  }
  const size_t input_bytes = static_cast<size_t>(pc.input_elements()) * sizeof(float);
  const size_t outputs = static_cast<size_t>(pc.output_elements());
  error_ = x_memory_.create(input_bytes);
  if (error_.empty()) error_ = cuda.copy_to_device(x_memory_.address(), test_input(pc).data(), input_bytes);
  if (error_.empty()) error_ = y_memory_.create(outputs * sizeof(float));
  if (error_.empty() && with_indices) error_ = indices_memory_.create(outputs * sizeof(int64_t));
  if (!error_.empty()) return;

  const std::vector<int64_t> output_shape = {pc.n, pc.c, pc.out_h(), pc.out_w()};
  x_ = onnxpool::TensorView(device_pointer(x_memory_), onnxpool::ElementType::kFloat32, {pc.n, pc.c, pc.h, pc.w},
                            onnxpool::Device::kCuda);
  y_ = onnxpool::TensorView(device_pointer(y_memory_), onnxpool::ElementType::kFloat32, output_shape,
                            onnxpool::Device::kCuda);
  indices_ = onnxpool::TensorView(device_pointer(indices_memory_), onnxpool::ElementType::kInt64, output_shape,
                                  onnxpool::Device::kCuda);
  if (run()) error_ = check_output();
}

bool CudaPoolRunner::run() {
  // Validation inside pool() is timed on purpose: every caller pays it.
  const onnxpool::Status status = onnxpool::pool(attributes_, x_, y_, with_indices_ ? &indices_ : nullptr);
  if (!status) error_ = "onnxpool pool: " + status.message();
  return status.is_ok();
}

std::string CudaPoolRunner::check_output() const {
  onnxpool_cuda::CudaDriver& cuda = onnxpool_cuda::CudaDriver::get();
  const PoolResult& expected = expected_output(op_, case_);
  std::vector<float> values(expected.values.size());
  std::string error = cuda.copy_to_host(values.data(), y_memory_.address(), values.size() * sizeof(float));
  if (!error.empty()) return error;
  error = op_.reduction == Reduction::kMax
              ? first_mismatch("output", values.data(), expected.values.data(), values.size())
              : first_mismatch_within("output", values.data(), expected.values.data(), values.size(),
                                      kRelTolerance, kAbsTolerance);
  if (!error.empty() || !with_indices_) return error;
  std::vector<int64_t> indices(expected.indices.size());
  error = cuda.copy_to_host(indices.data(), indices_memory_.address(), indices.size() * sizeof(int64_t));
  if (!error.empty()) return error;
  return first_mismatch("Indices", indices.data(), expected.indices.data(), indices.size());
}

}  // namespace onnxpool_bench
