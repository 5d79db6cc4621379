// Hand-written GPU schedules (CUDA, OpenCL) for the separable and the global
// pools: the same algorithms as on the CPU, laid out as thread blocks.
#pragma once

#include "Halide.h"
#include "../global_reduction.h"
#include "../separable_pool.h"

namespace onnxpool::gen {

void schedule_separable_pool_gpu(SeparablePool& pool, const Halide::Target& target);
void schedule_global_pool_gpu(GlobalPool& pool, const Halide::Target& target);

// Partial results per plane of a global pool on a GPU: the threads of one block.
int gpu_global_lanes();

}  // namespace onnxpool::gen
