#include "support/test_settings.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace onnxpool_test {
namespace {

constexpr uint64_t kDefaultSeed = 20240522;

const char* environment(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : nullptr;
}

uint64_t read_seed() {
  const char* text = environment("ONNXPOOL_TEST_SEED");
  if (text == nullptr) return kDefaultSeed;
  char* end = nullptr;
  const unsigned long long seed = std::strtoull(text, &end, 0);
  // A typo must not silently fall back to the default seed.
  if (*end != '\0') throw std::invalid_argument(std::string("ONNXPOOL_TEST_SEED is not a number: ") + text);
  return seed;
}

double read_scale() {
  const char* text = environment("ONNXPOOL_TEST_SCALE");
  if (text == nullptr) return 1.0;
  char* end = nullptr;
  const double scale = std::strtod(text, &end);
  if (*end != '\0' || !(scale > 0.0) || !std::isfinite(scale)) {
    throw std::invalid_argument(std::string("ONNXPOOL_TEST_SCALE must be a positive number: ") + text);
  }
  return scale;
}

}  // namespace

uint64_t test_seed() {
  static const uint64_t seed = [] {
    const uint64_t value = read_seed();
    std::printf("onnxpool tests: ONNXPOOL_TEST_SEED=%llu ONNXPOOL_TEST_SCALE=%g\n",
                static_cast<unsigned long long>(value), read_scale());
    std::fflush(stdout);
    return value;
  }();
  return seed;
}

double test_scale() {
  static const double scale = read_scale();
  return scale;
}

int scaled_case_count(int base_count) {
  const double scaled = std::round(base_count * test_scale());
  return scaled < 1.0 ? 1 : static_cast<int>(scaled);
}

}  // namespace onnxpool_test
