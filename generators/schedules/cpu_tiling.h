// The numbers a CPU schedule is built from, chosen per target family: the
// loop nests (cpu_schedule.cpp, global_cpu_schedule.cpp) are the same on
// x86 and ARM, the register files they are sized for are not.
#pragma once

#include "Halide.h"

namespace onnxpool::gen {

struct CpuTiling {
  // Lanes of one vector step of the separable stages and of the output; a
  // multiple of the target's natural vector size (LLVM splits it into that
  // many registers, which run as independent chains).
  int vector_size = 0;
  // Running partial results per plane in the global pools; a power of two.
  int global_lanes = 0;
  // Whether the separable pools get a copy of their loop nest with the x
  // loops unrolled for the ResNet stem's geometry (cpu_schedule.cpp).
  bool unroll_stem = false;
  // Whether the global pools get copies of their loop nests unrolled for
  // 7x7 and 14x14 planes (global_cpu_schedule.cpp).
  bool unroll_small_planes = true;
};

// For `accumulator`, the type the stages reduce in.
CpuTiling x86_tiling(const Halide::Target& target, const Halide::Type& accumulator);
CpuTiling arm_tiling(const Halide::Target& target, const Halide::Type& accumulator);

}  // namespace onnxpool::gen
