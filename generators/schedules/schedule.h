// The schedule of every pooling pipeline, picked by target family: a GPU
// target gets the GPU schedule (gpu_schedule.cpp); CPUs share the CPU loop
// nests, sized by the family's tiling (x86_tiling.cpp, arm_tiling.cpp) and
// the kernel's knobs (schedule_knobs.h). A kernel planned by an
// autoscheduler gets no hand directive. Generators call only these.
#pragma once

#include "Halide.h"
#include "../global_reduction.h"
#include "../flat_plane_pool.h"
#include "../halving_pool.h"
#include "../separable_pool.h"
#include "schedule_knobs.h"

namespace onnxpool::gen {

void schedule_separable_pool(SeparablePool& pool, const Halide::Target& target, const ScheduleKnobs& knobs);
void schedule_global_pool(GlobalPool& pool, const Halide::Target& target, const ScheduleKnobs& knobs);
// CPU targets only: the runtime runs the separable kernel on a GPU.
void schedule_flat_plane_pool(FlatPlanePool& pool, const Halide::Target& target, const ScheduleKnobs& knobs);
void schedule_halving_pool(HalvingPool& pool, const Halide::Target& target, const ScheduleKnobs& knobs);

// How a global pool reducing in `accumulator` blocks each plane: part of the
// algorithm, but sized for the target's registers and picked for its schedule.
// `chains` > 1 (CPU only; for long planes) holds that many vector steps of
// partials per plane, so the reduction runs as that many independent
// dependency chains, and drops the vectors-of-planes loop nest (made for
// planes a few vectors long).
GlobalBlocking global_blocking(const Halide::Target& target, const Halide::Type& accumulator,
                               const ScheduleKnobs& knobs, int chains = 1);

}  // namespace onnxpool::gen
