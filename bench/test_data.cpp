#include "test_data.h"

#include <iomanip>
#include <map>
#include <random>
#include <sstream>
#include <string>

namespace onnxpool_bench {

// Benchmarks run one at a time on the main thread, so the caches need no lock.
const AlignedBuffer<float>& test_input(const PoolCase& pc) {
  static std::map<std::string, AlignedBuffer<float>> inputs;
  auto it = inputs.find(pc.id);
  if (it == inputs.end()) {
    AlignedBuffer<float> values(static_cast<size_t>(pc.input_elements()), 0.0f);
    std::mt19937 generator(20240601u);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    for (size_t i = 0; i < values.size(); ++i) values[i] = uniform(generator);
    it = inputs.emplace(pc.id, std::move(values)).first;
  }
  return it->second;
}

const MaxPoolResult& expected_max_pool(const PoolCase& pc) {
  static std::map<std::string, MaxPoolResult> results;
  auto it = results.find(pc.id);
  if (it == results.end()) {
    it = results.emplace(pc.id, reference_max_pool(pc, test_input(pc).data())).first;
  }
  return it->second;
}

namespace {

template <typename T>
std::string describe_first_mismatch(const char* what, const T* got, const T* want, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    if (got[i] != want[i]) {
      std::ostringstream message;
      message << std::setprecision(9) << what << " differs from the reference at element " << i
              << ": got " << got[i] << ", expected " << want[i];
      return message.str();
    }
  }
  return std::string();
}

}  // namespace

std::string first_mismatch(const char* what, const float* got, const float* want, size_t count) {
  return describe_first_mismatch(what, got, want, count);
}

std::string first_mismatch(const char* what, const int64_t* got, const int64_t* want,
                           size_t count) {
  return describe_first_mismatch(what, got, want, count);
}

}  // namespace onnxpool_bench
