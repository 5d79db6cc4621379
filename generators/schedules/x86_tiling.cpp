// x86 (SSE4.1, AVX2, AVX-512): one natural vector per step.
//
// Measured on the 2-vCPU AVX-512 VM (bench/, README performance table): the
// separable stages are load/store bound, and a wider step (2 vectors) only
// lengthened the masked row tails on 28- and 56-wide planes; the global
// pools at one vector of partials fold in log2(16) steps per plane, which on
// 49-element planes (S5) is already a fifth of the work, so more partials
// would cost more than the longer dependency chain saves.
#include "cpu_tiling.h"

namespace onnxpool::gen {

CpuTiling x86_tiling(const Halide::Target& target, const Halide::Type& accumulator) {
  const int natural = target.natural_vector_size(accumulator);
  return CpuTiling{natural, natural};
}

}  // namespace onnxpool::gen
