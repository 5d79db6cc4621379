// x86 (SSE4.1, AVX2, AVX-512): one natural vector per step, and one vector
// of partials per plane in the global pools.
//
// The loop nests were tuned at this width on the 2-vCPU AVX-512 VM (the
// README's performance table); with 8 to 16 float32 lanes per register a
// natural vector already amortizes the loop overhead that makes ARM's
// 4-lane steps worth widening (arm_tiling.cpp). Wider x86 steps have not
// been measured yet.
#include "cpu_tiling.h"

namespace onnxpool::gen {

CpuTiling x86_tiling(const Halide::Target& target, const Halide::Type& accumulator) {
  const int natural = target.natural_vector_size(accumulator);
  return CpuTiling{natural, natural};
}

}  // namespace onnxpool::gen
