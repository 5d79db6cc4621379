// The result of running many random cases without gtest assertions (so that
// threads may run them): how many ran and how the first failures rebuild.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace onnxpool_test {

struct BatchOutcome {
  int cases_run = 0;
  int cases_failed = 0;
  std::vector<std::string> failures;  // the first few, each with how to rebuild the case

  static constexpr size_t kFailuresKept = 5;

  // Counts a failure, and keeps its text unless enough are kept already.
  void add_failure(std::string failure);
  std::string report() const;
};

}  // namespace onnxpool_test
