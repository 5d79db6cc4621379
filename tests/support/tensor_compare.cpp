#include "support/tensor_compare.h"

#include <cstring>
#include <iomanip>
#include <sstream>

namespace onnxpool_test {
namespace {

constexpr int kMismatchesShown = 6;

std::string element_text(const HostTensor& t, int64_t index) {
  std::ostringstream out;
  if (t.type() == ElementType::kInt64) {
    out << t.get_int64(index);
    return out.str();
  }
  out << std::setprecision(17) << t.get(index) << " (0x" << std::hex << t.bits(index) << ")";
  return out.str();
}

bool elements_match(const HostTensor& expected, const HostTensor& actual, int64_t index) {
  if (expected.is_nan(index) && actual.is_nan(index)) return true;
  const size_t width = bytes_per_element(expected.type());
  return std::memcmp(static_cast<const unsigned char*>(expected.data()) + index * width,
                     static_cast<const unsigned char*>(actual.data()) + index * width, width) == 0;
}

}  // namespace

testing::AssertionResult tensors_identical(const char* what, const HostTensor& expected, const HostTensor& actual) {
  if (expected.type() != actual.type() || expected.shape() != actual.shape()) {
    return testing::AssertionFailure() << what << ": expected " << type_label(expected.type())
                                       << shape_to_string(expected.shape()) << ", got "
                                       << type_label(actual.type()) << shape_to_string(actual.shape());
  }
  int64_t mismatches = 0;
  std::ostringstream detail;
  for (int64_t i = 0; i < expected.size(); ++i) {
    if (elements_match(expected, actual, i)) continue;
    if (++mismatches <= kMismatchesShown) {
      detail << "\n  " << what << coordinates(i, expected.shape()) << ": expected " << element_text(expected, i)
             << ", got " << element_text(actual, i);
    }
  }
  if (mismatches == 0) return testing::AssertionSuccess();
  return testing::AssertionFailure() << what << ": " << mismatches << " of " << expected.size()
                                     << " elements differ" << detail.str();
}

std::string coordinates(int64_t flat, const std::vector<int64_t>& shape) {
  std::vector<int64_t> position(shape.size());
  for (size_t axis = shape.size(); axis > 0; --axis) {
    position[axis - 1] = flat % shape[axis - 1];
    flat /= shape[axis - 1];
  }
  return shape_to_string(position);
}

}  // namespace onnxpool_test
