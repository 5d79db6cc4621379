#include "support/cuda_pool_check.h"

#include <exception>
#include <sstream>
#include <string>

#include "onnxpool/pooling.h"
#include "reference/reference_pooling.h"
#include "support/approx_compare.h"
#include "support/guarded_device_buffer.h"
#include "support/maxpool_check.h"
#include "support/pool_check.h"
#include "support/pool_expectation.h"
#include "support/tensor_compare.h"
#include "support/test_settings.h"
#include "support/unwritten_bytes.h"

namespace onnxpool_test {
namespace {

using onnxpool::Backend;
using onnxpool::PoolOp;
using onnxpool::Status;
using onnxpool::TensorView;

// The backend for host tensors while it lives; the CPU again afterwards.
class ScopedBackend {
 public:
  explicit ScopedBackend(Backend backend) : status_(onnxpool::set_backend(backend)) {}
  ~ScopedBackend() { onnxpool::set_backend(Backend::kCpu); }
  const Status& status() const { return status_; }

 private:
  Status status_;
};

testing::AssertionResult cuda_failure(const char* what, const onnxpool_cuda::CudaError& error) {
  return testing::AssertionFailure() << what << ": " << error;
}

// One operator call on device copies of X and of the outputs, which come
// back in Y (and Indices). Fails on a refused call, a failing CUDA call, a
// damaged guard, or a changed X.
testing::AssertionResult run_with_device_tensors(PoolOp op, const onnxpool::Attributes& raw, const HostTensor& X,
                                                 bool with_indices, bool through_dispatcher, size_t offset_elements,
                                                 HostTensor* Y, HostTensor* Indices) {
  onnxpool::PoolAttributes attributes;
  Status status = onnxpool::PoolAttributes::parse(op, raw, &attributes);
  if (!status) return testing::AssertionFailure() << "PoolAttributes::parse failed: " << status.message();
  std::vector<int64_t> shape;
  status = onnxpool::infer_output_shape(attributes, X.shape(), &shape);
  if (!status) return testing::AssertionFailure() << "infer_output_shape failed: " << status.message();
  *Y = HostTensor(X.type(), shape);
  *Indices = with_indices ? HostTensor(ElementType::kInt64, shape) : HostTensor();

  GuardedDeviceBuffer x, y, indices;
  const size_t value_offset = offset_elements * bytes_per_element(X.type());
  const size_t index_offset = offset_elements * bytes_per_element(ElementType::kInt64);
  onnxpool_cuda::CudaError error = x.create(X.byte_size(), 0, value_offset);
  if (error.empty()) error = x.upload(X.data());
  if (error.empty()) error = y.create(Y->byte_size(), kUnwrittenByte, value_offset);
  if (error.empty() && with_indices) error = indices.create(Indices->byte_size(), kUnwrittenByte, index_offset);
  if (!error.empty()) return cuda_failure("preparing the device tensors", error);

  const TensorView x_view(x.data(), X.type(), X.shape(), onnxpool::Device::kCuda);
  const TensorView y_view(y.data(), Y->type(), shape, onnxpool::Device::kCuda);
  const TensorView indices_view(indices.data(), ElementType::kInt64, shape, onnxpool::Device::kCuda);
  if (with_indices) {
    status = through_dispatcher ? onnxpool::pool(attributes, x_view, y_view, &indices_view)
                                : onnxpool::max_pool(attributes, x_view, y_view, &indices_view);
  } else {
    status = call_operator(op, attributes, x_view, y_view, through_dispatcher);
  }
  if (!status) return testing::AssertionFailure() << onnxpool::op_name(op) << " on device tensors failed: "
                                                  << status.message();

  error = y.download(Y->data());
  if (error.empty() && with_indices) error = indices.download(Indices->data());
  if (!error.empty()) return cuda_failure("copying the results back", error);
  if (const std::string damage = y.guard_damage(); !damage.empty()) {
    return testing::AssertionFailure() << onnxpool::op_name(op) << " wrote outside Y: " << damage;
  }
  if (with_indices) {
    if (const std::string damage = indices.guard_damage(); !damage.empty()) {
      return testing::AssertionFailure() << onnxpool::op_name(op) << " wrote outside Indices: " << damage;
    }
  }
  HostTensor X_after(X.type(), X.shape());
  error = x.download(X_after.data());
  if (!error.empty()) return cuda_failure("reading X back", error);
  if (!X_after.same_bytes(X) || !x.guard_damage().empty()) {
    return testing::AssertionFailure() << onnxpool::op_name(op) << " wrote into its input X or next to it";
  }
  return testing::AssertionSuccess();
}

// The CUDA run of a MaxPool case, as `placement` says.
testing::AssertionResult run_on_cuda(const MaxPoolCase& c, CudaPlacement placement, size_t offset_elements,
                                     MaxPoolResult* out) {
  if (placement == CudaPlacement::kDeviceTensors) {
    return run_with_device_tensors(PoolOp::kMaxPool, c.attributes, c.X, c.with_indices, /*through_dispatcher=*/false,
                                   offset_elements, &out->Y, &out->Indices);
  }
  const ScopedBackend cuda(Backend::kCuda);
  if (!cuda.status()) return testing::AssertionFailure() << "set_backend(kCuda): " << cuda.status().message();
  const Status status = library_max_pool(c, out);
  if (!status) return testing::AssertionFailure() << "max_pool on the CUDA backend failed: " << status.message();
  return testing::AssertionSuccess();
}

testing::AssertionResult run_on_cuda(const PoolCase& c, CudaPlacement placement, size_t offset_elements,
                                     HostTensor* Y) {
  if (placement == CudaPlacement::kDeviceTensors) {
    HostTensor no_indices;
    return run_with_device_tensors(c.op, c.attributes, c.X, /*with_indices=*/false, c.through_dispatcher,
                                   offset_elements, Y, &no_indices);
  }
  const ScopedBackend cuda(Backend::kCuda);
  if (!cuda.status()) return testing::AssertionFailure() << "set_backend(kCuda): " << cuda.status().message();
  const Status status = library_pool(c, Y);
  if (!status) {
    return testing::AssertionFailure() << onnxpool::op_name(c.op)
                                       << " on the CUDA backend failed: " << status.message();
  }
  return testing::AssertionSuccess();
}

testing::AssertionResult compare_max_pool(const MaxPoolCase& c, CudaPlacement placement, size_t offset_elements) {
  if (onnxpool::active_backend() != Backend::kCpu) return testing::AssertionFailure() << "the CPU backend is not active";
  MaxPoolResult cpu;
  const Status status = library_max_pool(c, &cpu);
  if (!status) return testing::AssertionFailure() << "max_pool on the CPU backend failed: " << status.message();
  MaxPoolResult cuda;
  testing::AssertionResult ran = run_on_cuda(c, placement, offset_elements, &cuda);
  if (!ran) return ran;
  testing::AssertionResult values = tensors_identical("Y (CUDA vs CPU backend)", cpu.Y, cuda.Y);
  if (!values || !c.with_indices) return values;
  return tensors_identical("Indices (CUDA vs CPU backend)", cpu.Indices, cuda.Indices);
}

testing::AssertionResult compare_pool(const PoolCase& c, CudaPlacement placement, size_t offset_elements) {
  if (onnxpool::active_backend() != Backend::kCpu) return testing::AssertionFailure() << "the CPU backend is not active";
  HostTensor cpu;
  const Status status = library_pool(c, &cpu);
  if (!status) {
    return testing::AssertionFailure() << onnxpool::op_name(c.op) << " on the CPU backend failed: " << status.message();
  }
  HostTensor cuda;
  testing::AssertionResult ran = run_on_cuda(c, placement, offset_elements, &cuda);
  if (!ran) return ran;
  if (c.op == PoolOp::kGlobalMaxPool) return tensors_identical("Y (CUDA vs CPU backend)", cpu, cuda);
  const PoolExpectation expected = expected_pool_result(c);
  testing::AssertionResult close = tensors_close("Y (CUDA)", c.X.type(), expected.values, expected.allowed, cuda);
  if (close) return close;
  const bool cpu_close = tensors_close("Y (CPU)", c.X.type(), expected.values, expected.allowed, cpu);
  return close << "\n  (the CPU backend's result for this case is " << (cpu_close ? "" : "NOT ")
               << "within the tolerance)";
}

template <typename Compare>
testing::AssertionResult without_exceptions(Compare compare) {
  try {
    return compare();
  } catch (const std::exception& e) {
    // The reference throws only for a case that is not valid ONNX: a test bug.
    return testing::AssertionFailure() << "exception while checking the case: " << e.what();
  }
}

void add_outcome(BatchOutcome* outcome, uint64_t stream, int index, const std::string& description,
                 const testing::AssertionResult& result) {
  ++outcome->cases_run;
  if (result) return;
  std::ostringstream failure;
  failure << "[ONNXPOOL_TEST_SEED=" << test_seed() << " stream " << stream << " case " << index << "] "
          << description << "\n  " << result.message();
  outcome->add_failure(failure.str());
}

}  // namespace

testing::AssertionResult cuda_matches_cpu(const MaxPoolCase& c, CudaPlacement placement, size_t offset_elements) {
  return without_exceptions([&] { return compare_max_pool(c, placement, offset_elements); });
}

testing::AssertionResult cuda_matches_cpu(const PoolCase& c, CudaPlacement placement, size_t offset_elements) {
  return without_exceptions([&] { return compare_pool(c, placement, offset_elements); });
}

BatchOutcome run_cuda_max_pool_cases(uint64_t stream, int count, const std::vector<ElementType>& types,
                                     const std::vector<int>& spatial_ranks, CudaPlacement placement) {
  BatchOutcome outcome;
  for (int index = 0; index < count; ++index) {
    const MaxPoolCase c = batch_case(stream, index, types, spatial_ranks);
    add_outcome(&outcome, stream, index, c.describe(), cuda_matches_cpu(c, placement));
  }
  return outcome;
}

BatchOutcome run_cuda_pool_cases(uint64_t stream, int count, PoolOp op, const std::vector<ElementType>& types,
                                 const std::vector<int>& spatial_ranks, CudaPlacement placement) {
  BatchOutcome outcome;
  for (int index = 0; index < count; ++index) {
    const PoolCase c = pool_batch_case(stream, index, op, types, spatial_ranks);
    add_outcome(&outcome, stream, index, c.describe(), cuda_matches_cpu(c, placement));
  }
  return outcome;
}

}  // namespace onnxpool_test
