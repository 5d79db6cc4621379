// Hand-written CPU schedule for the global pools (x86 and ARM).
#pragma once

#include "Halide.h"
#include "../global_reduction.h"

namespace onnxpool::gen {

// Partial results per plane for `accumulator` on `target`: the algorithm's
// blocking factor, chosen here because it is a register-file question.
int global_lanes(const Halide::Target& target, const Halide::Type& accumulator);

void schedule_global_pool_cpu(GlobalPool& pool, const Halide::Target& target);

}  // namespace onnxpool::gen
