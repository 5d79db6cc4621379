// The parallel-for behind every kernel's parallel loop.
//
// Why not Halide's default pool: its workers sleep between calls, and waking
// them costs more than a small pooling call (docs/design-decisions.md,
// "Thread pool and task shares"). These workers spin for a short
// while after each job, so back-to-back calls (a network's layers) find them
// awake, and sleep on a condition variable after that. Each thread starts on
// its own contiguous share of the tasks, the same share call after call, so
// its core's cache still holds what it read the last time (thread_pool.cpp).
#pragma once

#include <cstdint>

namespace onnxpool::detail {

// Halide's halide_do_par_for signature: runs task(user_context, i, closure)
// for i in [min, min + size); returns 0 or the first non-zero task result.
using LoopTask = int (*)(void* user_context, int task_number, uint8_t* closure);
int parallel_for(void* user_context, LoopTask task, int min, int size, uint8_t* closure);

// Inside a task of a parallel job: how many threads may run the job's
// tasks at once (its threads, or its task count if smaller), and which of
// them this is (0: the caller). Elsewhere, and in jobs run on the calling
// thread alone: {0, 1}. The scratch allocator provisions a block per thread
// and keeps each thread's freed blocks apart (scratch_allocator.h).
struct TaskThread {
  int index = 0;
  int threads = 1;
};
TaskThread this_task_thread();

// Makes this thread thread `thread.index` of a job of `thread.threads` for
// the scope's lifetime: for jobs that another pool runs (caller_pool.h).
class TaskThreadScope {
 public:
  explicit TaskThreadScope(TaskThread thread);
  ~TaskThreadScope();
  TaskThreadScope(const TaskThreadScope&) = delete;
  TaskThreadScope& operator=(const TaskThreadScope&) = delete;

 private:
  TaskThread outer_;
};

// Stops the pool's threads (a caller's pool takes the jobs from now on).
void stop_own_threads();

// Total threads including the caller; takes effect for the next job. When
// the system refuses the pool's threads, jobs run on the calling thread
// until the next call of this.
void set_parallel_threads(int threads);

// Threads of the pool that runs the parallel jobs, the caller included: 1
// while there is none (not started yet, or its threads were refused).
int pool_threads_running();

#ifdef ONNXPOOL_TEST_HOOKS
// Tests: stops the pool, so the next parallel job starts one again.
void stop_pool_for_testing();

// Tests: after the next `after` worker-thread starts, `count` starts fail as
// std::thread's do when the system refuses a thread.
void refuse_thread_starts_for_testing(int after, int count);

// Tests: jobs hand out their tasks in reverse order (each task still runs
// once), so the first task a thread runs is the job's last, which is the
// smaller one where rows or planes do not split evenly.
void run_tasks_last_first_for_testing(bool on);
#endif

}  // namespace onnxpool::detail
