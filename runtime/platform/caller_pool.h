// Parallel jobs on the caller's thread pool (onnxpool/thread_pool.h), which
// parallel_for (thread_pool.h) hands them to while one is in use.
#pragma once

#include <cstdint>

#include "onnxpool/thread_pool.h"
#include "platform/thread_pool.h"

namespace onnxpool::detail {

// Makes a copy of `pool` the one jobs run on, or none (nullptr). Every copy
// stays allocated until the process exits, so a job that read the one before
// finishes with it.
void set_caller_pool(const ThreadPool* pool);

// The caller's pool in use, or nullptr.
const ThreadPool* caller_pool();

// Runs task(user_context, i, closure) for i in [min, min + size) on `pool`:
// the first non-zero result, or 0.
int run_on_caller_pool(const ThreadPool& pool, void* user_context, LoopTask task, int min, int size,
                       uint8_t* closure);

}  // namespace onnxpool::detail
