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

#include <algorithm>

namespace onnxpool::gen {

namespace {
// The global pools' partials per plane: a 512-bit vector of 16-bit keys
// (32 lanes) leaves a 7x7 plane one vector and a 17-element tail, a
// 256-bit one three vectors and one element. GlobalMaxPool float16
// 1x2048x7x7, AVX-512, 1 thread: 32 lanes 8.6 us, 16 lanes 4.2.
constexpr int kMostGlobalLanes = 16;
}  // namespace

CpuTiling x86_tiling(const Halide::Target& target, const Halide::Type& accumulator) {
  const int natural = target.natural_vector_size(accumulator);
  return CpuTiling{natural, std::min(natural, kMostGlobalLanes), /*unroll_stem=*/true};
}

}  // namespace onnxpool::gen
