// onnxpool's MaxPool, through its public API, as a benchmark runner.
#pragma once

#include <memory>

#include "pool_runner.h"
#include "shapes.h"

namespace onnxpool_bench {

// onnxpool::max_pool on the NCHW input in place (NCHW is onnxpool's layout, so
// there is nothing to reorder), with attributes built the way an ONNX runtime
// hands them over. `with_indices` also asks for the Indices output. Sets
// onnxpool's thread count to `threads`.
std::unique_ptr<PoolRunner> make_onnxpool_max_pool(const PoolCase& pool_case, bool with_indices,
                                                   int threads, const float* input_nchw);

}  // namespace onnxpool_bench
