// PoolOperator: plans at create(), checks the tensors and executes at run().
#include "onnxpool/pool_operator.h"

#include "api/call_guard.h"
#include "execute/executor.h"
#include "plan/plan.h"
#include "plan/tensor_checks.h"

namespace onnxpool {

struct PoolOperator::State {
  std::vector<int64_t> x_shape, y_shape;
  detail::Plan values;        // Y only
  detail::Plan with_indices;  // MaxPool with Indices
  Status indices_status;      // why there is no plan with Indices, if none
};

PoolOperator::PoolOperator() = default;
PoolOperator::~PoolOperator() = default;
PoolOperator::PoolOperator(PoolOperator&&) noexcept = default;
PoolOperator& PoolOperator::operator=(PoolOperator&&) noexcept = default;

Status PoolOperator::create(const PoolAttributes& attributes, const std::vector<int64_t>& x_shape, ElementType type,
                            PoolOperator* op, Device device) {
  return detail::guarded_call("PoolOperator::create", [&] {
    if (op == nullptr) return Status::invalid_argument("PoolOperator::create: op is null");
    auto state = std::make_unique<State>();
    state->x_shape = x_shape;
    const TensorView x(nullptr, type, x_shape, device);
    const detail::PlanContext context = detail::PlanContext::current();
    Status s = detail::plan_call(attributes.op, attributes, x, nullptr, nullptr, false, context, &state->values);
    if (!s) return s;
    state->y_shape = state->values.output_shape.to_vector();
    // For the other operators the planner refuses Indices with its message.
    state->indices_status =
        detail::plan_call(attributes.op, attributes, x, nullptr, nullptr, true, context, &state->with_indices);
    op->state_ = std::move(state);
    return Status::ok();
  });
}

Status PoolOperator::run(const TensorView& X, const TensorView& Y, const TensorView* Indices) const {
  if (state_ == nullptr) return Status::invalid_argument("PoolOperator::run: the operator was not created");
  const detail::Plan& plan = Indices != nullptr ? state_->with_indices : state_->values;
  return detail::guarded_call(op_name(plan.op), [&] {
    if (Indices != nullptr && !state_->indices_status) return state_->indices_status;
    const PoolOp op = plan.op;
    Status s = detail::check_input(op, "X", X);
    if (!s) return s;
    if (X.type != plan.type || X.device != plan.device || X.shape != state_->x_shape) {
      return Status::invalid_argument(std::string(op_name(op)) + ": tensor 'X' must be " +
                                      element_type_name(plan.type) + " of shape " +
                                      detail::shape_string(state_->x_shape) + " in " + detail::device_name(plan.device) +
                                      " memory (what the operator was created for), got " + element_type_name(X.type) +
                                      " " + detail::shape_string(X.shape) + " in " + detail::device_name(X.device) +
                                      " memory");
    }
    s = detail::check_output(op, "Y", Y, X, X.type, plan.output_shape);
    if (!s) return s;
    if (Indices != nullptr) {
      s = detail::check_output(op, "Indices", *Indices, X, ElementType::kInt64, plan.output_shape);
      if (!s) return s;
    }
    return detail::execute(plan, X, Y, Indices);
  });
}

const std::vector<int64_t>& PoolOperator::output_shape() const {
  static const std::vector<int64_t> none;
  return state_ == nullptr ? none : state_->y_shape;
}

std::string PoolOperator::describe() const {
  if (state_ == nullptr) return "PoolOperator (not created)";
  std::string text = state_->values.describe();
  if (state_->values.op != PoolOp::kMaxPool) return text;
  text += "\nwith Indices: ";
  text += state_->indices_status ? state_->with_indices.describe() : state_->indices_status.message();
  return text;
}

}  // namespace onnxpool
