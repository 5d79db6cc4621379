// Hand CPU schedule of the flat-plane "same" pools (x86 and ARM, sized by
// the family's CpuTiling).
#pragma once

#include "Halide.h"
#include "../flat_plane_pool.h"
#include "cpu_tiling.h"

namespace onnxpool::gen {

void schedule_flat_plane_pool_cpu(FlatPlanePool& pool, const CpuTiling& tiling);

}  // namespace onnxpool::gen
