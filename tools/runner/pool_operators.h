// The ONNX operators the runner knows, and how each reaches onnxpool.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "onnxpool/onnxpool.h"
#include "tensor_compare.h"

namespace onnxpool_runner {

// outputs[k] is the view for the node's output k, or nullptr where the node
// leaves that optional output out.
using PoolKernel = onnxpool::Status (*)(const onnxpool::PoolAttributes& attributes,
                                        const onnxpool::TensorView& X,
                                        const std::vector<const onnxpool::TensorView*>& outputs);

struct PoolOperator {
  const char* onnx_name;  // NodeProto.op_type
  onnxpool::PoolOp op;
  size_t max_outputs;      // 2 for MaxPool (Y, Indices), 1 for the others
  Comparison comparison;   // how its float outputs are checked
  PoolKernel kernel;       // nullptr while onnxpool lacks the entry point
};

// The operator named `op_type` in the default ONNX domain, or nullptr.
const PoolOperator* find_pool_operator(const std::string& op_type);

// Element type of output `index` for an input of `input_type`: Y keeps X's
// type, MaxPool's Indices are int64.
int32_t output_data_type(const PoolOperator& pool_operator, size_t index, int32_t input_type);

}  // namespace onnxpool_runner
