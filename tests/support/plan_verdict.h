// White-box tests of the planner: what a plan's candidate list said about
// one kernel family.
#pragma once

#include <cstring>
#include <string>

#include "plan/plan.h"

namespace onnxpool_test {

// The verdict on `candidate`: "accepted", the reason it was declined, or
// "not weighed".
inline std::string verdict(const onnxpool::detail::Plan& plan, const char* candidate) {
  for (const auto& v : plan.verdicts) {
    if (std::strcmp(v.candidate, candidate) == 0) return v.declined_because ? v.declined_because : "accepted";
  }
  return "not weighed";
}

}  // namespace onnxpool_test
