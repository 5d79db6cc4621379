// Compares what onnxpool computed with a backend test's expected output.
#pragma once

#include <string>

#include "host_tensor.h"

namespace onnxpool_runner {

enum class Comparison {
  // Bit for bit (NaN matches any NaN): for operators that only select an input
  // value, such as MaxPool, and for all integer outputs.
  kExact,
  // Within a tolerance for floats, exact for integers: for operators that do
  // arithmetic, where rounding order legitimately differs.
  kTolerant,
};

// Tolerances of kTolerant: |actual - expected| <= absolute + relative * |expected|.
struct Tolerance {
  double relative;
  double absolute;
};
// float32 and float64 get {1e-5, 1e-6}; float16 and bfloat16, compared in
// float32, get {1e-2, 1e-6} because one rounding step is ~1e-3 or ~4e-3 there.
Tolerance tolerance_for(int32_t data_type);

// Empty when `actual` matches `expected`; otherwise one line saying what
// differed: the type, the shape, or the first differing element with its
// index and both values, and how many elements differ.
std::string compare_tensors(const HostTensor& expected, const HostTensor& actual, Comparison how);
// The same, with `tolerance_override` (when not nullptr) in place of
// tolerance_for() for kTolerant floats; exact comparisons stay exact.
std::string compare_tensors(const HostTensor& expected, const HostTensor& actual, Comparison how,
                            const Tolerance* tolerance_override);

}  // namespace onnxpool_runner
