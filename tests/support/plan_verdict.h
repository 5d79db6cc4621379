// White-box tests of the planner: a case's plan, and what a plan's candidate
// list said about one kernel family.
#pragma once

#include <cstring>
#include <string>

#include "plan/plan.h"
#include "support/windowed_case.h"

namespace onnxpool_test {

// The verdict on `candidate`: "accepted", the reason it was declined, or
// "not weighed".
inline std::string verdict(const onnxpool::detail::Plan& plan, const char* candidate) {
  for (const auto& v : plan.verdicts) {
    if (std::strcmp(v.candidate, candidate) == 0) return v.declined_because ? v.declined_because : "accepted";
  }
  return "not weighed";
}

// The plan of case `c` (with Indices or not) on this machine's settings, or
// the status that refused it (its attributes' or the planner's).
inline onnxpool::Status plan_windowed_case(const WindowedCase& c, bool with_indices, onnxpool::detail::Plan* plan) {
  onnxpool::PoolAttributes attributes;
  const onnxpool::Status parsed = onnxpool::PoolAttributes::parse(c.op, c.attributes(), &attributes);
  if (!parsed) return parsed;
  const HostTensor& X = c.op == onnxpool::PoolOp::kMaxPool ? c.max_case.X : c.pool_case.X;
  const onnxpool::TensorView x(nullptr, X.type(), X.shape());
  return onnxpool::detail::plan_call(c.op, attributes, x, nullptr, nullptr, with_indices,
                                     onnxpool::detail::PlanContext::current(), plan);
}

}  // namespace onnxpool_test
