// An Lp norm that neither overflows nor underflows: the oracle for the
// extreme-magnitude LpPool tests, where the plain reference's double sum of
// |x|^p does (float64 near 1e200 with p = 2, float32 subnormals with p = 8).
#pragma once

#include <cstdint>
#include <vector>

namespace onnxpool_test {

// (sum |x|^p)^(1/p) as m * (sum (|x| / m)^p)^(1/p) in long double, with
// m = max |x|: every term is at most 1 and the largest is exactly 1, so the
// sum neither overflows nor loses what matters to underflow. NaN if any value
// is NaN; otherwise +inf if any is infinite; 0 for no values or only zeros.
long double scaled_lp_norm(const std::vector<double>& values, int64_t p);

}  // namespace onnxpool_test
