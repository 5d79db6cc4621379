// Hand-written CPU schedule for every separable pooling pipeline (x86 and ARM).
#pragma once

#include "Halide.h"
#include "../separable_pool.h"

namespace onnxpool::gen {

void schedule_separable_pool_cpu(SeparablePool& pool, const Halide::Target& target);

}  // namespace onnxpool::gen
