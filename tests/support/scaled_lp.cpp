#include "support/scaled_lp.h"

#include <cmath>
#include <limits>

namespace onnxpool_test {

long double scaled_lp_norm(const std::vector<double>& values, int64_t p) {
  long double largest = 0.0L;
  bool infinite = false;
  for (double value : values) {
    if (std::isnan(value)) return std::numeric_limits<long double>::quiet_NaN();
    infinite = infinite || std::isinf(value);
    largest = std::fmax(largest, std::fabs(static_cast<long double>(value)));
  }
  if (infinite) return std::numeric_limits<long double>::infinity();
  if (largest == 0.0L) return 0.0L;
  long double sum = 0.0L;
  for (double value : values) {
    const long double ratio = std::fabs(static_cast<long double>(value)) / largest;
    long double power = 1.0L;
    for (int64_t k = 0; k < p; ++k) power *= ratio;
    sum += power;
  }
  const long double root = p == 2 ? std::sqrt(sum) : std::pow(sum, 1.0L / static_cast<long double>(p));
  return largest * root;
}

}  // namespace onnxpool_test
