// ARM64 (NEON): 128-bit vectors, so 4 float32 or 2 float64 lanes.
//
// Steps of at least 4 lanes: for the float64 accumulators (LpPool of
// float32/bfloat16) two registers per step, otherwise one natural vector.
// This is the hand default, what a build without tuning data compiles; the
// step per kernel is a knob (vector_multiple) that `tools/tune.sh --targets
// arm64` costs in guest instructions per call under qemu-aarch64 (no ARM
// hardware was at hand, so no timings), and generators/schedules/tuned/
// arm64.json records the winners. The default was set when every 2D window
// ran the separable kernel, whose masked row tails, scalarized, made wider
// steps lose on 28-wide planes (MaxPool S4: 1.89M instructions at one vector
// per step, 3.10M at four); with S4 on the flat-plane kernels and S3 on the
// halving ones, four-vector steps now cost fewer instructions on most
// windowed kernels (0.53x to 0.91x; docs/tuning.md, ARM64).
// No copy with unrolled x loops for the ResNet stem by default (x86 has one,
// cpu_schedule.cpp): at one-vector steps it changes no instruction count
// (unroll_stem=1 alone: 1.00x on S1). With four-vector steps it does, and
// the tuning table takes both together for S1's kernels (MaxPool 0.81x,
// AveragePool 0.53x the default's instructions).
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
