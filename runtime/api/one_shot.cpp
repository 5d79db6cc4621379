// The one-shot entry points of onnxpool/pooling.h: each plans its call and
// runs the plan at once (a created PoolOperator keeps its plan instead).
#include "api/call_guard.h"
#include "execute/executor.h"
#include "onnxpool/pooling.h"
#include "plan/plan.h"

namespace onnxpool {
namespace {

Status run_one_shot(PoolOp op, const PoolAttributes& attributes, const TensorView& X, const TensorView& Y,
                    const TensorView* Indices) {
  return detail::guarded_call(op_name(op), [&] {
    detail::Plan plan;
    Status s = detail::plan_call(op, attributes, X, &Y, Indices, Indices != nullptr,
                                 detail::PlanContext::current(), &plan);
    if (!s) return s;
    return detail::execute(plan, X, Y, Indices);
  });
}

}  // namespace

Status max_pool(const PoolAttributes& attributes, const TensorView& X, const TensorView& Y,
                const TensorView* Indices) {
  return run_one_shot(PoolOp::kMaxPool, attributes, X, Y, Indices);
}

Status average_pool(const PoolAttributes& attributes, const TensorView& X, const TensorView& Y) {
  return run_one_shot(PoolOp::kAveragePool, attributes, X, Y, nullptr);
}

Status lp_pool(const PoolAttributes& attributes, const TensorView& X, const TensorView& Y) {
  return run_one_shot(PoolOp::kLpPool, attributes, X, Y, nullptr);
}

Status global_max_pool(const PoolAttributes& attributes, const TensorView& X, const TensorView& Y) {
  return run_one_shot(PoolOp::kGlobalMaxPool, attributes, X, Y, nullptr);
}

Status global_average_pool(const PoolAttributes& attributes, const TensorView& X, const TensorView& Y) {
  return run_one_shot(PoolOp::kGlobalAveragePool, attributes, X, Y, nullptr);
}

Status global_lp_pool(const PoolAttributes& attributes, const TensorView& X, const TensorView& Y) {
  return run_one_shot(PoolOp::kGlobalLpPool, attributes, X, Y, nullptr);
}

Status pool(const PoolAttributes& attributes, const TensorView& X, const TensorView& Y, const TensorView* Indices) {
  // Guarded: the messages built here.
  return detail::guarded_call("pool", [&] {
    if (Indices != nullptr && attributes.op != PoolOp::kMaxPool) {
      return Status::invalid_argument(std::string(op_name(attributes.op)) +
                                      ": output 'Indices' exists only for MaxPool; pass nullptr");
    }
    switch (attributes.op) {
      case PoolOp::kMaxPool:
      case PoolOp::kAveragePool:
      case PoolOp::kLpPool:
      case PoolOp::kGlobalMaxPool:
      case PoolOp::kGlobalAveragePool:
      case PoolOp::kGlobalLpPool: return run_one_shot(attributes.op, attributes, X, Y, Indices);
    }
    return Status::invalid_argument("pool: unknown operator code " + std::to_string(static_cast<int>(attributes.op)));
  });
}

}  // namespace onnxpool
