// ARM64 (NEON): 128-bit vectors, 32 of them.
//
// A natural NEON vector is a quarter of an AVX-512 one, so one vector per
// step would pay the same loop and address overhead for a quarter of the
// data. VECTORS_PER_STEP_REASON
#include "cpu_tiling.h"

namespace onnxpool::gen {

namespace {
constexpr int kVectorsPerStep = 2;
constexpr int kGlobalPartialVectors = 4;
}  // namespace

CpuTiling arm_tiling(const Halide::Target& target, const Halide::Type& accumulator) {
  const int natural = target.natural_vector_size(accumulator);
  return CpuTiling{natural * kVectorsPerStep, natural * kGlobalPartialVectors};
}

}  // namespace onnxpool::gen
