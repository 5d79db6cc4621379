// onnxpool's pooling operators, through the public API, as benchmark runners.
#pragma once

#include <memory>

#include "pool_runner.h"
#include "shapes.h"

namespace onnxpool_bench {

// onnxpool::pool for `op` on the NCHW input in place (NCHW is onnxpool's
// layout, so there is nothing to reorder), with attributes built the way an
// ONNX runtime hands them over: kernel_shape, strides and pads from the case
// (none for the global operators), count_include_pad = kCountIncludePad for
// AveragePool, p = kLpP for the Lp operators. `with_indices` (MaxPool only)
// also asks for the Indices output. Sets onnxpool's thread count to `threads`.
std::unique_ptr<PoolRunner> make_onnxpool_pool(const PoolOpSpec& op, const PoolCase& pool_case,
                                               bool with_indices, int threads,
                                               const float* input_nchw);

// The same node through a PoolOperator created once (onnxpool/pool_operator.h)
// and run on every iteration: what a runtime that keeps one per node pays.
std::unique_ptr<PoolRunner> make_onnxpool_operator(const PoolOpSpec& op, const PoolCase& pool_case, int threads,
                                                   const float* input_nchw);

}  // namespace onnxpool_bench
