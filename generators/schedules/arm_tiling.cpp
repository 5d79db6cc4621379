// ARM64 (NEON): 128-bit vectors, so 4 float32 or 2 float64 lanes.
//
// Steps of at least 4 lanes: for the float64 accumulators (LpPool of
// float32/bfloat16) two registers per step, otherwise one natural vector.
// Measured as guest instructions per call under qemu-aarch64 (the ARM
// library, 1 thread; counted with qemu's in_asm/exec trace, deterministic;
// no ARM hardware was at hand, so no timings), in millions, by step width in
// natural vectors:
//                     1 vector   2 vectors   4 vectors
//   MaxPool S1          3.33       3.20        3.02
//   MaxPool S4          1.89       2.51        3.10
//   AveragePool S1      3.78       3.05        2.77
//   AveragePool S4      2.42       2.85        3.24
//   LpPool S6 (f64)     2.10       1.51        1.50
// Wider steps pay on 112-wide S1 planes and lose more on 28-wide S4 planes,
// where each row's masked tail vector is scalarized; 2-lane float64 steps
// are the clear exception. A width-dependent step would take the best of
// each column at the price of twice the specializations (not done yet).
// No copy with unrolled x loops for the ResNet stem (x86 has one,
// cpu_schedule.cpp): what it saves there is mispredicted loop exits, which
// qemu's instruction counts cannot show, and without hardware to time it the
// generation time it costs buys nothing measured.
// The global pools use the same step as their number of partials: more
// partials cost more in the fold tree and the longer tail than the
// independent chains save on 49- and 196-element planes (GlobalAveragePool
// S5: 0.141M instructions at 4 partials, 0.225M at 16; GlobalLpPool S7 with
// float64 partials: 0.182M at 2, 0.132M at 4, 0.226M at 8).
#include "cpu_tiling.h"

#include <algorithm>

namespace onnxpool::gen {

namespace {
constexpr int kMinLanesPerStep = 4;
}  // namespace

CpuTiling arm_tiling(const Halide::Target& target, const Halide::Type& accumulator) {
  const int step = std::max(target.natural_vector_size(accumulator), kMinLanesPerStep);
  return CpuTiling{step, step, /*unroll_stem=*/false};
}

}  // namespace onnxpool::gen
