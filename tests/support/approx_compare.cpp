#include "support/approx_compare.h"

#include <cmath>
#include <cstring>
#include <iomanip>
#include <sstream>

#include "support/float_type_info.h"
#include "support/tensor_compare.h"

namespace onnxpool_test {
namespace {

constexpr int kMismatchesShown = 6;

std::string bits_of(const HostTensor& t, int64_t index) {
  uint64_t bits = 0;
  std::memcpy(&bits, static_cast<const unsigned char*>(t.data()) + index * bytes_per_element(t.type()),
              bytes_per_element(t.type()));
  std::ostringstream out;
  out << "0x" << std::hex << bits;
  return out.str();
}

}  // namespace

bool acceptable(ElementType type, double exact, double allowed, double actual) {
  if (std::isnan(exact) || std::isnan(actual)) return std::isnan(exact) && std::isnan(actual);
  if (std::isinf(exact)) return actual == exact;
  if (std::isinf(actual)) {
    return std::signbit(actual) == std::signbit(exact) && std::isinf(round_to(type, std::fabs(exact) + allowed));
  }
  return std::fabs(actual - exact) <= allowed;
}

testing::AssertionResult tensors_close(const char* what, ElementType type, const HostTensor& exact,
                                       const HostTensor& allowed, const HostTensor& actual) {
  if (actual.type() != type || actual.shape() != exact.shape() || allowed.shape() != exact.shape()) {
    return testing::AssertionFailure() << what << ": expected " << type_label(type) << shape_to_string(exact.shape())
                                       << ", got " << type_label(actual.type()) << shape_to_string(actual.shape());
  }
  int64_t mismatches = 0;
  std::ostringstream detail;
  detail << std::setprecision(17);
  for (int64_t i = 0; i < exact.size(); ++i) {
    if (acceptable(type, exact.get(i), allowed.get(i), actual.get(i))) continue;
    if (++mismatches <= kMismatchesShown) {
      detail << "\n  " << what << coordinates(i, exact.shape()) << ": expected " << exact.get(i) << " +- "
             << allowed.get(i) << ", got " << actual.get(i) << " (" << bits_of(actual, i) << ")";
    }
  }
  if (mismatches == 0) return testing::AssertionSuccess();
  return testing::AssertionFailure() << what << ": " << mismatches << " of " << exact.size()
                                     << " elements outside the tolerance" << detail.str();
}

}  // namespace onnxpool_test
