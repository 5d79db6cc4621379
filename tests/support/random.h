// A small deterministic random source for test cases. The standard
// distributions are implementation-defined, so the cases would differ
// between standard libraries; these helpers do not.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

namespace onnxpool_test {

class Random {
 public:
  explicit Random(uint64_t seed) : engine_(seed) {}

  uint64_t bits() { return engine_(); }
  // Uniform in [low, high] (the modulo bias is irrelevant for test cases).
  int64_t between(int64_t low, int64_t high);
  bool chance(double probability);
  template <typename T>
  const T& pick(const std::vector<T>& options) {
    return options[static_cast<size_t>(between(0, static_cast<int64_t>(options.size()) - 1))];
  }

 private:
  std::mt19937_64 engine_;
};

// A seed for case `index` of `stream`, so that every case can be rebuilt on
// its own from the run seed, and different tests draw different cases.
uint64_t derive_seed(uint64_t run_seed, uint64_t stream, uint64_t index);

}  // namespace onnxpool_test
