// Cases whose published expected values are less precise than the runner's
// tolerance, with the wider tolerance each one gets and why. This is the only
// place a case is judged more loosely than tolerance_for() says.
#pragma once

#include <string>

#include "tensor_compare.h"

namespace onnxpool_runner {

struct ToleranceOverride {
  const char* case_name;  // the case folder's name, matched exactly
  Tolerance tolerance;    // replaces tolerance_for() for kTolerant outputs
  const char* reason;     // printed next to the case's PASS/FAIL line
};

// The override for the case named `case_name`, or nullptr (the usual case).
const ToleranceOverride* find_tolerance_override(const std::string& case_name);

}  // namespace onnxpool_runner
