#include "support/onnx_attributes.h"

namespace onnxpool_test {

using onnxpool::PoolOp;

bool is_global_pool(PoolOp op) {
  return op == PoolOp::kGlobalMaxPool || op == PoolOp::kGlobalAveragePool || op == PoolOp::kGlobalLpPool;
}

onnxpool::Attributes onnx_attributes(PoolOp op, const PoolSpec& spec, bool state_defaults) {
  onnxpool::Attributes attributes;
  const bool takes_p = op == PoolOp::kLpPool || op == PoolOp::kGlobalLpPool;
  if (!is_global_pool(op)) {
    if (!spec.kernel_shape.empty()) attributes.set("kernel_shape", spec.kernel_shape);
    if (!spec.strides.empty()) attributes.set("strides", spec.strides);
    if (!spec.dilations.empty()) attributes.set("dilations", spec.dilations);
    if (!spec.pads.empty()) attributes.set("pads", spec.pads);
    if (state_defaults || spec.auto_pad != "NOTSET") attributes.set("auto_pad", spec.auto_pad);
    if (state_defaults || spec.ceil_mode) attributes.set("ceil_mode", int64_t{spec.ceil_mode ? 1 : 0});
    if (op == PoolOp::kMaxPool && (state_defaults || spec.storage_order != 0)) {
      attributes.set("storage_order", spec.storage_order);
    }
    if (op == PoolOp::kAveragePool && (state_defaults || spec.count_include_pad)) {
      attributes.set("count_include_pad", int64_t{spec.count_include_pad ? 1 : 0});
    }
  }
  if (takes_p && (state_defaults || spec.p != 2)) attributes.set("p", spec.p);
  return attributes;
}

}  // namespace onnxpool_test
