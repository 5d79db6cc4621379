#include "support/literal_tensors.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace onnxpool_test {

HostTensor tensor(ElementType type, std::vector<int64_t> shape, const Values& values) {
  HostTensor t(type, std::move(shape));
  if (static_cast<int64_t>(values.size()) != t.size()) throw std::logic_error("test tensor: wrong value count");
  for (int64_t i = 0; i < t.size(); ++i) t.set(i, values[static_cast<size_t>(i)]);
  return t;
}

Values values_of(const HostTensor& t) {
  Values values;
  for (int64_t i = 0; i < t.size(); ++i) {
    values.push_back(t.is_nan(i) ? std::numeric_limits<double>::quiet_NaN() : t.get(i));
  }
  return values;
}

testing::AssertionResult same_values(const Values& expected, const Values& actual) {
  bool same = expected.size() == actual.size();
  for (size_t i = 0; same && i < expected.size(); ++i) {
    same = (std::isnan(expected[i]) && std::isnan(actual[i])) || expected[i] == actual[i];
  }
  if (same) return testing::AssertionSuccess();
  testing::AssertionResult failure = testing::AssertionFailure() << "expected";
  for (double v : expected) failure << ' ' << v;
  failure << ", got";
  for (double v : actual) failure << ' ' << v;
  return failure;
}

}  // namespace onnxpool_test
