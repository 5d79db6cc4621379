#include "support/batch_outcome.h"

#include <sstream>

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

}  // namespace onnxpool_test
