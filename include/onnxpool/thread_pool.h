// Running onnxpool's parallel loops on the caller's thread pool (an
// inference runtime's, a game engine's, a server's) instead of onnxpool's own
// threads, so one set of threads serves both.
//
// The contract, for whoever writes `parallel_for`:
//   - onnxpool calls it only from inside its own calls, on the thread that
//     made the call, never from inside one of its tasks: the pool need not be
//     re-entrant. (A parallel loop inside a task runs on that task's thread.)
//   - Its tasks never wait on each other: running them one after another on
//     the calling thread is correct, so a busy pool may do just that.
//   - onnxpool calls made from several threads at once call it from several
//     threads at once.
//   - Tasks do not throw, and it must not throw either: it is called from
//     inside compiled kernels.
#pragma once

#include <cstddef>

#include "onnxpool/status.h"

namespace onnxpool {

// One task of a parallel loop.
using ParallelTask = void (*)(void* task_context, size_t index);

// Runs task(task_context, i) once for every i in [0, count), on any of the
// pool's threads (the calling one included), and returns when every task
// has returned.
using ParallelFor = void (*)(void* pool_context, ParallelTask task, void* task_context, size_t count);

struct ThreadPool {
  ParallelFor parallel_for = nullptr;
  void* context = nullptr;  // handed to parallel_for as pool_context
  // Threads that may run tasks at once, the calling one included (>= 1). It
  // sizes how a call is split into tasks, as set_num_threads' count does;
  // with 1, every loop runs on the calling thread and parallel_for is never
  // called.
  int threads = 0;
};

// Runs the CPU kernels' parallel loops on `pool` from now on. onnxpool's own
// threads stop before it returns, and none starts again until set_num_threads
// is called, which goes back to them. Calls already running finish on what
// they started with; the pool must stay usable until the next
// use_thread_pool or set_num_threads has returned and those calls are done.
// A PoolOperator keeps the task split of the thread count it was created
// under and runs on whichever pool is current. invalid_argument, naming the
// field, for a null parallel_for or threads < 1.
Status use_thread_pool(const ThreadPool& pool);

// Whether the kernels run on a pool given to use_thread_pool.
bool uses_caller_thread_pool();

}  // namespace onnxpool
