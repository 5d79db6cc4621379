// Hand-written CPU schedule for every separable pooling pipeline (x86 and
// ARM, sized by the family's CpuTiling).
#pragma once

#include "Halide.h"
#include "../separable_pool.h"
#include "cpu_tiling.h"

namespace onnxpool::gen {

void schedule_separable_pool_cpu(SeparablePool& pool, const CpuTiling& tiling);

}  // namespace onnxpool::gen
