// The parallel-for behind every kernel's parallel loop.
//
// Why not Halide's default pool: its workers sleep between calls, and waking
// them cost about 20 us per call at 2 threads on the benchmark VM, more than
// a whole 28x28x192 MaxPool (design.md §6). These workers spin for a short
// while after each job, so back-to-back calls (a network's layers) find them
// awake, and sleep on a condition variable after that. Each thread starts on
// its own contiguous share of the tasks, the same share call after call, so
// its core's cache still holds what it read the last time (thread_pool.cpp).
#pragma once

#include <cstdint>

namespace onnxpool::detail {

// Halide's halide_do_par_for signature: runs task(user_context, i, closure)
// for i in [min, min + size); returns 0 or the first non-zero task result.
using ParallelTask = int (*)(void* user_context, int task_number, uint8_t* closure);
int parallel_for(void* user_context, ParallelTask task, int min, int size, uint8_t* closure);

// Total threads including the caller; takes effect for the next job.
void set_parallel_threads(int threads);

}  // namespace onnxpool::detail
