#include "pool_operators.h"

namespace onnxpool_runner {

namespace {

using onnxpool::PoolAttributes;
using onnxpool::Status;
using onnxpool::TensorView;

Status max_pool_with_optional_indices(const PoolAttributes& attributes, const TensorView& X,
                                      const std::vector<const TensorView*>& outputs) {
  const TensorView* indices = outputs.size() > 1 ? outputs[1] : nullptr;
  return onnxpool::max_pool(attributes, X, *outputs[0], indices);
}

// Adapts a one-output entry point, `Status f(attributes, X, Y)`, the form
// every pooling operator but MaxPool has.
template <Status (*Kernel)(const PoolAttributes&, const TensorView&, const TensorView&)>
Status single_output(const PoolAttributes& attributes, const TensorView& X,
                     const std::vector<const TensorView*>& outputs) {
  return Kernel(attributes, X, *outputs[0]);
}

// A row whose kernel is nullptr reports the operator as not implemented.
const PoolOperator kPoolOperators[] = {
    {"MaxPool", onnxpool::PoolOp::kMaxPool, 2, Comparison::kExact, max_pool_with_optional_indices},
    {"AveragePool", onnxpool::PoolOp::kAveragePool, 1, Comparison::kTolerant,
     single_output<onnxpool::average_pool>},
    {"LpPool", onnxpool::PoolOp::kLpPool, 1, Comparison::kTolerant,
     single_output<onnxpool::lp_pool>},
    {"GlobalMaxPool", onnxpool::PoolOp::kGlobalMaxPool, 1, Comparison::kExact,
     single_output<onnxpool::global_max_pool>},
    {"GlobalAveragePool", onnxpool::PoolOp::kGlobalAveragePool, 1, Comparison::kTolerant,
     single_output<onnxpool::global_average_pool>},
    {"GlobalLpPool", onnxpool::PoolOp::kGlobalLpPool, 1, Comparison::kTolerant,
     single_output<onnxpool::global_lp_pool>},
};

}  // namespace

const PoolOperator* find_pool_operator(const std::string& op_type) {
  for (const PoolOperator& entry : kPoolOperators) {
    if (op_type == entry.onnx_name) return &entry;
  }
  return nullptr;
}

int32_t output_data_type(const PoolOperator& pool_operator, size_t index, int32_t input_type) {
  if (pool_operator.op == onnxpool::PoolOp::kMaxPool && index == 1) return onnx::TensorProto::INT64;
  return input_type;
}

}  // namespace onnxpool_runner
