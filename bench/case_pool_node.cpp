#include "case_pool_node.h"

#include <vector>

namespace onnxpool_bench {

const PoolOpSpec& suite_op(onnxpool::PoolOp op) {
  switch (op) {
    case onnxpool::PoolOp::kMaxPool: return kMaxPool;
    case onnxpool::PoolOp::kAveragePool: return kAveragePool;
    case onnxpool::PoolOp::kLpPool: return kLpPool;
    case onnxpool::PoolOp::kGlobalMaxPool: return kGlobalMaxPool;
    case onnxpool::PoolOp::kGlobalAveragePool: return kGlobalAveragePool;
    case onnxpool::PoolOp::kGlobalLpPool: return kGlobalLpPool;
  }
  return kMaxPool;
}

bool case_pool_node(const CaseSpec& spec, PoolNode* node, std::string* error) {
  PoolNode result;
  result.op = suite_op(spec.op);
  result.count_include_pad = spec.count_include_pad;
  result.p = spec.p;
  result.input = spec.shape;
  result.output = spec.output_shape;
  const size_t rank = spec.spatial_rank();
  if (spec.global) {
    result.kernel.assign(spec.shape.begin() + 2, spec.shape.end());
    result.strides.assign(rank, 1);
    result.dilations.assign(rank, 1);
    result.pad_begin.assign(rank, 0);
    result.pad_end.assign(rank, 0);
    *node = std::move(result);
    return true;
  }
  // The ONNX shape rules are onnxpool's, not repeated here.
  std::vector<int64_t> pads;
  const onnxpool::Status status = onnxpool::resolve_pads(spec.attributes, spec.shape, &pads);
  if (!status) {
    *error = "case '" + spec.text + "': " + status.message();
    return false;
  }
  result.kernel = spec.attributes.kernel_shape;
  result.strides = spec.attributes.strides;
  result.dilations = spec.attributes.dilations;
  result.pad_begin.assign(pads.begin(), pads.begin() + static_cast<std::ptrdiff_t>(rank));
  result.pad_end.assign(pads.begin() + static_cast<std::ptrdiff_t>(rank), pads.end());
  *node = std::move(result);
  return true;
}

}  // namespace onnxpool_bench
