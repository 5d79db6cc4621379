// Hand-written GPU schedules (CUDA, OpenCL) for the separable and the global
// pools: the same algorithms as on the CPU, laid out as thread blocks.
#pragma once

#include "Halide.h"
#include "../global_reduction.h"
#include "../separable_pool.h"

namespace onnxpool::gen {

// The numbers a GPU schedule is built from. The defaults are the
// conventional starting point (a warp along x for coalesced loads, 256
// threads a block), not measured ones; tools/tune.sh tunes them where a GPU
// is lent (schedule_knobs.h's gpu_* knobs).
struct GpuTiling {
  int tile_x = 32, tile_y = 8;
  // Threads per plane of a global pool, each folding a strided slice of it:
  // its partial results per plane.
  int global_threads = 64;
};

void schedule_separable_pool_gpu(SeparablePool& pool, const GpuTiling& tiling);
void schedule_global_pool_gpu(GlobalPool& pool, const GpuTiling& tiling);

}  // namespace onnxpool::gen
