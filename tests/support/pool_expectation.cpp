#include "support/pool_expectation.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "reference/reference_pooling.h"
#include "support/approx_compare.h"
#include "support/float_type_info.h"

namespace onnxpool_test {

using onnxpool::PoolOp;

namespace {

// X as float64 times 2^-exponent (exact: a power of two within double's range).
HostTensor scaled_copy(const HostTensor& X, int exponent, bool absolute) {
  HostTensor out(ElementType::kFloat64, X.shape());
  for (int64_t i = 0; i < X.size(); ++i) {
    const double value = X.get(i);
    out.set(i, std::ldexp(absolute ? std::fabs(value) : value, -exponent));
  }
  return out;
}

HostTensor scaled_back(HostTensor t, int exponent) {
  for (int64_t i = 0; i < t.size(); ++i) t.set(i, std::ldexp(t.get(i), exponent));
  return t;
}

HostTensor absolute_values(HostTensor t) {
  for (int64_t i = 0; i < t.size(); ++i) t.set(i, std::fabs(t.get(i)));
  return t;
}

// The terms a window sums: its taps, but never more than its plane of X
// holds (kernel_shape may be far larger than X, up to INT64_MAX per axis).
int64_t taps_per_output(const PoolCase& c) {
  // No output to bound; an empty X's plane may pass int64 (found by api_fuzzer).
  if (c.X.size() == 0) return 0;
  const int64_t plane = element_count(std::vector<int64_t>(c.X.shape().begin() + 2, c.X.shape().end()));
  if (c.op == PoolOp::kGlobalAveragePool || c.op == PoolOp::kGlobalLpPool) return plane;
  int64_t taps = 1;
  for (int64_t k : c.spec.kernel_shape) {
    if (taps > plane / std::max<int64_t>(k, 1)) return plane;
    taps *= k;
  }
  return std::min(taps, plane);
}

}  // namespace

double relative_tolerance(ElementType type) {
  return type == ElementType::kFloat16 || type == ElementType::kBFloat16 ? 1e-2 : 1e-5;
}

double allowed_error(ElementType type, double exact, double magnitude, int64_t taps) {
  if (!std::isfinite(exact)) return 0.0;
  // Half a subnormal unit for rounding the result; for float64 another half:
  // the float64 reference has rounded `exact` itself (a mean that is a tie
  // between two subnormals comes back rounded to even, and the kernel's
  // product with the count's reciprocal may land on the other side).
  const double subnormal_units = type == ElementType::kFloat64 ? 1.0 : 0.5;
  return relative_tolerance(type) * std::fabs(exact) +
         static_cast<double>(taps + 1) * accumulator_unit_roundoff(type) * magnitude +
         subnormal_units * smallest_subnormal(type);
}

testing::AssertionResult close_to(const std::vector<double>& exact, int64_t taps, const HostTensor& actual) {
  if (static_cast<int64_t>(exact.size()) != actual.size()) {
    return testing::AssertionFailure() << "expected " << exact.size() << " values, got " << actual.size();
  }
  HostTensor expected(ElementType::kFloat64, actual.shape());
  HostTensor allowed(ElementType::kFloat64, actual.shape());
  for (int64_t i = 0; i < actual.size(); ++i) {
    const double e = exact[static_cast<size_t>(i)];
    expected.set(i, e);
    allowed.set(i, allowed_error(actual.type(), e, std::fabs(e), taps));
  }
  return tensors_close("Y", actual.type(), expected, allowed, actual);
}

PoolExpectation expected_pool_result(const PoolCase& c) {
  PoolExpectation e;
  if (c.op == PoolOp::kGlobalMaxPool) {
    e.exact = true;
    e.values = reference_global_max_pool(c.X);
    return e;
  }
  const HostTensor X = scaled_copy(c.X, c.scale_exponent, false);
  HostTensor magnitude;
  switch (c.op) {
    case PoolOp::kAveragePool:
      e.values = reference_average_pool(c.spec, X);
      magnitude = reference_average_pool(c.spec, scaled_copy(c.X, c.scale_exponent, true));
      break;
    case PoolOp::kLpPool:
      e.values = reference_lp_pool(c.spec, X);
      magnitude = absolute_values(e.values);
      break;
    case PoolOp::kGlobalAveragePool:
      e.values = reference_global_average_pool(X);
      magnitude = reference_global_average_pool(scaled_copy(c.X, c.scale_exponent, true));
      break;
    case PoolOp::kGlobalLpPool:
      e.values = reference_global_lp_pool(X, c.spec.p);
      magnitude = absolute_values(e.values);
      break;
    default: throw std::logic_error("expected_pool_result: not an operator of PoolCase");
  }
  e.values = scaled_back(std::move(e.values), c.scale_exponent);
  magnitude = scaled_back(std::move(magnitude), c.scale_exponent);
  const int64_t taps = taps_per_output(c);
  e.allowed = HostTensor(ElementType::kFloat64, e.values.shape());
  for (int64_t i = 0; i < e.values.size(); ++i) {
    e.allowed.set(i, allowed_error(c.X.type(), e.values.get(i), magnitude.get(i), taps));
  }
  return e;
}

}  // namespace onnxpool_test
