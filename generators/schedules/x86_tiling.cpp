// x86 (SSE4.1, AVX2, AVX-512): one natural vector per step, and one vector
// of partials per plane in the global pools.
//
// The loop nests were tuned at this width on the 2-vCPU AVX-512 VM (the
// README's performance table); with 8 to 16 float32 lanes per register a
// natural vector already amortizes the loop overhead that makes ARM's
// 4-lane steps worth widening (arm_tiling.cpp). Two AVX-512 vectors per step
// instead, measured (float32 kernels swapped into the same library, 1
// thread, medians, us, one vector -> two): MaxPool S1 129 -> 146, S3 57 ->
// 302, S4 75 -> 157; AveragePool S1 140 -> 150, S4 118 -> 700. The masked
// tails of 28- and 56-wide rows grow with the step, and a 32-lane step on a
// 28-wide S4 row is all tail.
#include "cpu_tiling.h"

namespace onnxpool::gen {

CpuTiling x86_tiling(const Halide::Target& target, const Halide::Type& accumulator) {
  const int natural = target.natural_vector_size(accumulator);
  return CpuTiling{natural, natural};
}

}  // namespace onnxpool::gen
