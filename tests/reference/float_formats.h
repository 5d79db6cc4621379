// Conversions between float/double and the two 16-bit float formats the
// pooling kernels take (IEEE binary16 and bfloat16), written from the format
// definitions so that the tests rely on neither the library's nor the
// compiler's conversions.
#pragma once

#include <cstdint>

namespace onnxpool_test {

// A float's bit pattern and back.
uint32_t float_bits(float value);
float float_from_bits(uint32_t bits);

// Round to nearest, ties to even; overflow gives infinity; a NaN stays NaN.
uint16_t float16_from_double(double value);
uint16_t bfloat16_from_double(double value);

// As above; a NaN also keeps its sign and the top bits of its payload.
uint16_t float16_from_float(float value);
uint16_t bfloat16_from_float(float value);

// Exact (every 16-bit value is a float); NaN payloads are kept.
float float16_to_float(uint16_t bits);
float bfloat16_to_float(uint16_t bits);

}  // namespace onnxpool_test
