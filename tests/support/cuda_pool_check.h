// The check of the CUDA tests: a case run on CUDA against the same call on
// the CPU backend. MaxPool (Y and Indices) and GlobalMaxPool must match the
// CPU bit for bit (any NaN equals any NaN). AveragePool, LpPool,
// GlobalAveragePool and GlobalLpPool sum in a different order on the GPU, so
// their CUDA result must be within the tolerance the other tests allow
// (pool_expectation.h) of the exact float64 result; a failure says whether
// the CPU backend's result for the case is within it too, which tells a GPU
// bug from a case the library gets wrong everywhere.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "onnxpool/attributes.h"
#include "support/batch_outcome.h"
#include "support/maxpool_cases.h"
#include "support/pool_cases.h"

namespace onnxpool_test {

enum class CudaPlacement {
  // X, Y and Indices in CUDA device memory (TensorView device kCuda), with
  // guard bytes around each, the backend left at kCpu: device tensors run on
  // CUDA whatever set_backend chose. Also checks that nothing is written
  // outside Y and Indices and that X is unchanged.
  kDeviceTensors,
  // Host tensors with set_backend(Backend::kCuda): uploaded, run, copied back.
  kHostTensorsOnCudaBackend,
};

// `offset_elements` (kDeviceTensors only): each tensor starts that many of
// its elements past an aligned address, as a view into a larger allocation
// does. Expects the CPU backend to be active, and leaves it so.
testing::AssertionResult cuda_matches_cpu(const MaxPoolCase& c, CudaPlacement placement, size_t offset_elements = 0);
testing::AssertionResult cuda_matches_cpu(const PoolCase& c, CudaPlacement placement, size_t offset_elements = 0);

// Cases 0 .. count-1 of `stream` (support/maxpool_check.h's batch_case and
// support/pool_check.h's pool_batch_case draw them), each checked as above.
BatchOutcome run_cuda_max_pool_cases(uint64_t stream, int count, const std::vector<ElementType>& types,
                                     const std::vector<int>& spatial_ranks, CudaPlacement placement);
BatchOutcome run_cuda_pool_cases(uint64_t stream, int count, onnxpool::PoolOp op,
                                 const std::vector<ElementType>& types, const std::vector<int>& spatial_ranks,
                                 CudaPlacement placement);

}  // namespace onnxpool_test
