// The generic entry point: one call for whichever operator the attributes name.
#include "call_guard.h"
#include "onnxpool/pooling.h"

namespace onnxpool {
namespace {

Status run_pool(const PoolAttributes& attributes, const TensorView& X, const TensorView& Y, const TensorView* Indices) {
  if (Indices != nullptr && attributes.op != PoolOp::kMaxPool) {
    return Status::invalid_argument(std::string(op_name(attributes.op)) +
                                    ": output 'Indices' exists only for MaxPool; pass nullptr");
  }
  switch (attributes.op) {
    case PoolOp::kMaxPool: return max_pool(attributes, X, Y, Indices);
    case PoolOp::kAveragePool: return average_pool(attributes, X, Y);
    case PoolOp::kLpPool: return lp_pool(attributes, X, Y);
    case PoolOp::kGlobalMaxPool: return global_max_pool(attributes, X, Y);
    case PoolOp::kGlobalAveragePool: return global_average_pool(attributes, X, Y);
    case PoolOp::kGlobalLpPool: return global_lp_pool(attributes, X, Y);
  }
  return Status::invalid_argument("pool: unknown operator code " + std::to_string(static_cast<int>(attributes.op)));
}

}  // namespace

// The operators guard themselves; this guards the messages built here.
Status pool(const PoolAttributes& attributes, const TensorView& X, const TensorView& Y, const TensorView* Indices) {
  return detail::guarded_call("pool", [&] { return run_pool(attributes, X, Y, Indices); });
}

}  // namespace onnxpool
