// A benchmark case as the onnxpool attributes an ONNX runtime would hand
// over, shared by the CPU runner (onnxpool_pool.cpp) and the CUDA one
// (gpu/cuda_pool_runner.cpp), so both time the same node.
#pragma once

#include <onnxpool/onnxpool.h>

#include "shapes.h"

namespace onnxpool_bench {

onnxpool::PoolOp onnxpool_op(const PoolOpSpec& op);

// kernel_shape, strides and pads from the case (none for the global
// operators), count_include_pad = kCountIncludePad for AveragePool, p = kLpP
// for the Lp operators, parsed; then checks that onnxpool infers the case's
// output shape, which every later comparison relies on.
onnxpool::Status onnxpool_case_attributes(const PoolOpSpec& op, const PoolCase& pool_case,
                                          onnxpool::PoolAttributes* attributes);

}  // namespace onnxpool_bench
