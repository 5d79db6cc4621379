// Hand CPU schedule of the 2x2 stride-2 pools (x86 and ARM, sized by the
// family's CpuTiling).
#pragma once

#include "Halide.h"
#include "../halving_pool.h"
#include "cpu_tiling.h"

namespace onnxpool::gen {

void schedule_halving_pool_cpu(HalvingPool& pool, const CpuTiling& tiling);

}  // namespace onnxpool::gen
