#include "support/random.h"

namespace onnxpool_test {

int64_t Random::between(int64_t low, int64_t high) {
  const uint64_t span = static_cast<uint64_t>(high - low) + 1;
  return low + static_cast<int64_t>(bits() % span);
}

bool Random::chance(double probability) {
  const double unit = static_cast<double>(bits() >> 11) * 0x1.0p-53;  // [0, 1) from the top 53 bits
  return unit < probability;
}

namespace {

// splitmix64 finaliser: consecutive inputs give unrelated outputs.
uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

}  // namespace

uint64_t derive_seed(uint64_t run_seed, uint64_t stream, uint64_t index) {
  return mix(mix(mix(run_seed) ^ stream) ^ index);
}

}  // namespace onnxpool_test
