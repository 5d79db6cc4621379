// The schedule of every pooling pipeline, picked by target family: a GPU
// target gets the GPU schedule (gpu_schedule.cpp); CPUs share the CPU loop
// nests, sized by the family's tiling (x86_tiling.cpp, arm_tiling.cpp).
// Generators call only these.
#pragma once

#include "Halide.h"
#include "../global_reduction.h"
#include "../flat_plane_pool.h"
#include "../halving_pool.h"
#include "../separable_pool.h"

namespace onnxpool::gen {

void schedule_separable_pool(SeparablePool& pool, const Halide::Target& target);
void schedule_global_pool(GlobalPool& pool, const Halide::Target& target);
// CPU targets only: the runtime runs the separable kernel on a GPU.
void schedule_flat_plane_pool(FlatPlanePool& pool, const Halide::Target& target);
void schedule_halving_pool(HalvingPool& pool, const Halide::Target& target);

// How a global pool reducing in `accumulator` blocks each plane: part of the
// algorithm, but sized for the target's registers and picked for its schedule.
GlobalBlocking global_blocking(const Halide::Target& target, const Halide::Type& accumulator);

}  // namespace onnxpool::gen
