// Exact comparison of an operator's output with the reference's.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "reference/host_tensor.h"

namespace onnxpool_test {

// Same type, shape and bits in every element, except that any NaN equals any
// NaN (a kernel may quiet or canonicalise a NaN). On failure the message
// names `what` and lists the first mismatching elements with coordinates.
testing::AssertionResult tensors_identical(const char* what, const HostTensor& expected, const HostTensor& actual);

// "[n, c, ...]": the coordinates of row-major element `flat` of `shape`, for
// mismatch messages.
std::string coordinates(int64_t flat, const std::vector<int64_t>& shape);

}  // namespace onnxpool_test
