// Hand-written CPU schedule for the global pools (x86 and ARM, sized by the
// family's CpuTiling).
#pragma once

#include "Halide.h"
#include "../global_reduction.h"
#include "cpu_tiling.h"

namespace onnxpool::gen {

// pool.lanes must be tiling.global_lanes (the generator asks schedule.h).
void schedule_global_pool_cpu(GlobalPool& pool, const CpuTiling& tiling);

}  // namespace onnxpool::gen
