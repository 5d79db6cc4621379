// The result of running many random cases without gtest assertions (so that
// threads may run them): how many ran and how the first failures rebuild.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
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

// Runs cases 0 .. count-1 of a random stream. `failure_of(index)` builds and
// checks one case and says what went wrong (the case and the mismatch), or
// nothing; each failure kept is prefixed with the seed, stream and index
// that rebuild its case.
BatchOutcome run_case_batch(uint64_t stream, int count,
                            const std::function<std::optional<std::string>(int index)>& failure_of);

}  // namespace onnxpool_test
