#include "support/batch_outcome.h"

#include <sstream>

#include "support/test_settings.h"

namespace onnxpool_test {

void BatchOutcome::add_failure(std::string failure) {
  ++cases_failed;
  if (failures.size() < kFailuresKept) failures.push_back(std::move(failure));
}

std::string BatchOutcome::report() const {
  std::ostringstream out;
  out << cases_failed << " of " << cases_run << " case(s) failed; the first " << failures.size() << " shown:";
  for (const std::string& failure : failures) out << "\n" << failure;
  return out.str();
}

BatchOutcome run_case_batch(uint64_t stream, int count,
                            const std::function<std::optional<std::string>(int index)>& failure_of) {
  BatchOutcome outcome;
  const uint64_t seed = test_seed();
  for (int index = 0; index < count; ++index) {
    const std::optional<std::string> failure = failure_of(index);
    ++outcome.cases_run;
    if (failure) {
      std::ostringstream text;
      text << "[ONNXPOOL_TEST_SEED=" << seed << " stream " << stream << " case " << index << "] " << *failure;
      outcome.add_failure(text.str());
    }
  }
  return outcome;
}

}  // namespace onnxpool_test
