// Small tensors written out in a test, and their values read back, for the
// corner-case tests that state the expected output by hand.
#pragma once

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "reference/host_tensor.h"

namespace onnxpool_test {

using Values = std::vector<double>;

// A tensor of `type` holding `values` (each rounded once to the type).
HostTensor tensor(ElementType type, std::vector<int64_t> shape, const Values& values);

// Every element as a double; any NaN reads as the quiet NaN.
Values values_of(const HostTensor& t);

// Equal element for element, NaN equal to NaN (and +0 equal to -0).
testing::AssertionResult same_values(const Values& expected, const Values& actual);

}  // namespace onnxpool_test
