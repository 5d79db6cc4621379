#include "platform/caller_pool.h"

#include <algorithm>
#include <atomic>
#include <deque>
#include <mutex>

namespace onnxpool::detail {
namespace {

std::mutex g_pools_mutex;
std::deque<ThreadPool> g_pools;  // every pool ever set, under g_pools_mutex
std::atomic<const ThreadPool*> g_current{nullptr};

// One job on the caller's pool. Each thread that runs a task of it takes the
// next slot the first time, and keeps it for the job: the scratch allocator
// keeps a list per slot that only its thread touches (scratch_allocator.h),
// whichever threads the pool picks and however many.
struct Job {
  LoopTask task;
  void* user_context;
  uint8_t* closure;
  int min;
  int threads;  // how many tasks may run at once, as the pool declared
  uint64_t id;
  std::atomic<int> next_slot{0};
  std::atomic<int> result{0};
};

std::atomic<uint64_t> g_next_job_id{1};
thread_local uint64_t t_job_id = 0;
thread_local int t_slot = 0;

void run_task(void* context, size_t index) {
  Job& job = *static_cast<Job*>(context);
  if (t_job_id != job.id) {
    t_job_id = job.id;
    t_slot = job.next_slot.fetch_add(1);
  }
  // At least 2, so that a loop inside the task runs on this thread
  // (parallel_for) and the allocator provisions spares for the others.
  const TaskThreadScope scope(TaskThread{t_slot, std::max(job.threads, 2)});
  const int r = job.task(job.user_context, job.min + static_cast<int>(index), job.closure);
  if (r != 0) {
    int expected = 0;
    job.result.compare_exchange_strong(expected, r);
  }
}

}  // namespace

void set_caller_pool(const ThreadPool* pool) {
  if (pool == nullptr) {
    g_current.store(nullptr);
    return;
  }
  std::lock_guard<std::mutex> lock(g_pools_mutex);
  g_pools.push_back(*pool);
  g_current.store(&g_pools.back());
}

const ThreadPool* caller_pool() { return g_current.load(); }

int run_on_caller_pool(const ThreadPool& pool, void* user_context, LoopTask task, int min, int size,
                       uint8_t* closure) {
  Job job;
  job.task = task;
  job.user_context = user_context;
  job.closure = closure;
  job.min = min;
  job.threads = std::min(pool.threads, size);
  job.id = g_next_job_id.fetch_add(1);
  pool.parallel_for(pool.context, run_task, &job, static_cast<size_t>(size));
  return job.result.load();
}

}  // namespace onnxpool::detail
