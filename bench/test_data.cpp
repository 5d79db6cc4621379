#include "test_data.h"

#include <cmath>
#include <iomanip>
#include <map>
#include <random>
#include <sstream>
#include <string>

namespace onnxpool_bench {

// Benchmarks run one at a time on the main thread, so the caches need no lock.
const AlignedBuffer<float>& test_input(const std::string& id, int64_t elements) {
  static std::map<std::string, AlignedBuffer<float>> inputs;
  auto it = inputs.find(id);
  if (it == inputs.end()) {
    AlignedBuffer<float> values(static_cast<size_t>(elements), 0.0f);
    std::mt19937 generator(20240601u);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    for (size_t i = 0; i < values.size(); ++i) values[i] = uniform(generator);
    it = inputs.emplace(id, std::move(values)).first;
  }
  return it->second;
}

const AlignedBuffer<float>& test_input(const PoolCase& pc) { return test_input(pc.id, pc.input_elements()); }

const PoolResult& expected_output(const PoolOpSpec& op, const PoolCase& pc) {
  static std::map<std::string, PoolResult> results;
  const std::string key = std::string(op.name) + "/" + pc.id;
  auto it = results.find(key);
  if (it == results.end()) {
    it = results.emplace(key, reference_pool(op, pc, test_input(pc).data())).first;
  }
  return it->second;
}

const std::vector<float>& expected_node_output(const PoolNode& node, const std::string& id) {
  static std::map<std::string, std::vector<float>> results;
  const std::string key = std::string(node.op.name) + "/" + id;
  auto it = results.find(key);
  if (it == results.end()) {
    const float* input = test_input(id, node.input_elements()).data();
    it = results.emplace(key, reference_pool_node(node, input)).first;
  }
  return it->second;
}

namespace {

template <typename T>
std::string describe(const char* what, size_t i, T got, T want) {
  std::ostringstream message;
  message << std::setprecision(9) << what << " differs from the reference at element " << i
          << ": got " << got << ", expected " << want;
  return message.str();
}

template <typename T>
std::string describe_first_mismatch(const char* what, const T* got, const T* want, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    if (got[i] != want[i]) return describe(what, i, got[i], want[i]);
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

std::string first_mismatch_within(const char* what, const float* got, const float* want,
                                  size_t count, double rel_tolerance, double abs_tolerance) {
  for (size_t i = 0; i < count; ++i) {
    const double error = std::fabs(static_cast<double>(got[i]) - want[i]);
    // Written so that a NaN (any comparison false) fails.
    if (!(error <= abs_tolerance + rel_tolerance * std::fabs(static_cast<double>(want[i])))) {
      return describe(what, i, got[i], want[i]);
    }
  }
  return std::string();
}

}  // namespace onnxpool_bench
