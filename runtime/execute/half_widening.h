// 16-bit floats on a backend with no 16-bit kernels (OpenCL without
// cl_half): the call runs the float32 kernel on widened copies and narrows
// the results back. Exact for MaxPool (widening is exact and max picks a
// value); for the sums it is what the 16-bit kernels do anyway (accumulate
// in float32, round once), except LpPool, which sums in float64 there.
#pragma once

#include <cstdint>
#include <vector>

#include "onnxpool/tensor.h"

namespace onnxpool::detail {

// IEEE binary16 and bfloat16 <-> binary32. Widening is exact; narrowing
// rounds to nearest even and turns NaN into the canonical quiet NaN the
// kernels write (0x7E00, 0x7FC0).
float float16_to_float(uint16_t bits);
uint16_t float_to_float16(float value);
float bfloat16_to_float(uint16_t bits);
uint16_t float_to_bfloat16(float value);

bool is_half_type(ElementType type);

// n float16 or bfloat16 values (by `type`) widened into `out`, with the
// CPU's conversion instructions where it has them (F16C, ARMv8).
void widen_half(const uint16_t* in, ElementType type, float* out, int64_t n);

// A float32 copy of a float16 or bfloat16 host tensor, or room for one.
class WidenedTensor {
 public:
  // Copies `t`'s values when `copy_values`.
  WidenedTensor(const TensorView& t, bool copy_values);
  const TensorView& view() const { return view_; }
  // Rounds the float32 values into `t` (the tensor this was made from).
  void narrow_into(const TensorView& t) const;

 private:
  std::vector<float> values_;
  TensorView view_;
};

}  // namespace onnxpool::detail
