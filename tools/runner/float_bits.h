// 16-bit float formats decoded by hand, so comparisons need no compiler
// support for _Float16 or bfloat16.
#pragma once

#include <cstdint>

namespace onnxpool_runner {

// IEEE 754 binary16. Exact: every float16 value is a float32 value.
float float16_to_float(uint16_t bits);
// bfloat16 is the top half of a float32. Exact.
float bfloat16_to_float(uint16_t bits);

}  // namespace onnxpool_runner
