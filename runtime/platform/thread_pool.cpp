#include "platform/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "platform/caller_pool.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define ONNXPOOL_CPU_RELAX() _mm_pause()
#elif defined(__aarch64__)
#define ONNXPOOL_CPU_RELAX() asm volatile("yield")
#else
#define ONNXPOOL_CPU_RELAX() ((void)0)
#endif

namespace onnxpool::detail {
namespace {

// How long an idle worker keeps polling before it sleeps.
constexpr auto kSpinTime = std::chrono::microseconds(2000);

// The job whose task this thread runs: its threads and this one's share.
thread_local TaskThread t_task_thread;

// A job's tasks are cut into one contiguous share per thread, the caller's
// first. Each thread drains its own share, then helps with the others'. The
// same thread gets the same share call after call, so the part of the input
// it read last time is still in its core's L2: with one shared counter the
// tasks went to whichever thread asked first, and at 2 threads each call
// re-read most of its input from the other core's cache
// (docs/design-decisions.md, "Thread pool and task shares").
struct alignas(64) Share {
  std::atomic<int> next{0};
  int end = 0;
};

struct Job {
  LoopTask task;
  void* user_context;
  uint8_t* closure;
  int min, size;
  Share* shares;  // `share_count` of them, set up by the pool
  int share_count;
  std::atomic<int> result{0};
  bool last_first = false;  // run_tasks_last_first_for_testing (test build)

  void run_share(int own) {
    const TaskThread outer = t_task_thread;
    t_task_thread = TaskThread{own, std::min(size, share_count)};
    for (int k = 0; k < share_count; ++k) {
      Share& share = shares[(own + k) % share_count];
      for (int i = share.next.fetch_add(1); i < share.end; i = share.next.fetch_add(1)) {
        const int r = task(user_context, min + (last_first ? size - 1 - i : i), closure);
        if (r != 0) {
          int expected = 0;
          result.compare_exchange_strong(expected, r);
        }
      }
    }
    t_task_thread = outer;
  }
};

// Injected faults: starts that succeed first, then starts refused. Pools
// start under g_pool_mutex, so plain counters would do; atomics keep the
// hooks callable from any thread.
#ifdef ONNXPOOL_TEST_HOOKS
std::atomic<int> g_starts_before_fault{0};
std::atomic<int> g_thread_start_faults{0};
#endif

// std::thread's own failure (the system refuses a thread: a pids cgroup,
// RLIMIT_NPROC) or, in the test build, an injected one, as std::system_error.
std::thread start_thread(std::function<void()> body) {
#ifdef ONNXPOOL_TEST_HOOKS
  if (g_thread_start_faults.load() > 0) {
    if (g_starts_before_fault.load() > 0) {
      g_starts_before_fault.fetch_sub(1);
    } else {
      g_thread_start_faults.fetch_sub(1);
      throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again),
                              "thread start refused (injected)");
    }
  }
#endif
  return std::thread(std::move(body));
}

// Protocol: the caller publishes a job by bumping `generation_` (odd: a job
// is open), works on it, closes it (bump to even) and waits until no worker
// is inside. A worker registers in `active_` first and only then checks the
// generation, so it either is counted before the close or never touches the
// job.
class SpinningPool {
 public:
  // Throws what starting a thread threw, after stopping the ones it started
  // (a joinable std::thread left to its destructor would end the process).
  explicit SpinningPool(int workers) : shares_(workers + 1) {
    // A worker counts generations from the pool's start, not from when its
    // thread happens to run, so it cannot miss a job opened before that.
    const uint64_t start = generation_.load();
    threads_.reserve(workers);
    try {
      for (int i = 0; i < workers; ++i) threads_.push_back(start_thread([this, i, start] { work(i + 1, start); }));
    } catch (...) {
      stop();
      throw;
    }
  }
  ~SpinningPool() { stop(); }

  void stop() {
    {
      std::lock_guard<std::mutex> lock(sleep_mutex_);
      stop_.store(true);
    }
    wake_.notify_all();
    for (std::thread& t : threads_) t.join();
    threads_.clear();
  }

  int run(Job& job) {
    const int count = static_cast<int>(shares_.size());
    for (int p = 0; p < count; ++p) {
      shares_[p].next.store(static_cast<int>(static_cast<int64_t>(job.size) * p / count));
      shares_[p].end = static_cast<int>(static_cast<int64_t>(job.size) * (p + 1) / count);
    }
    job.shares = shares_.data();
    job.share_count = count;
    job_ = &job;
    generation_.fetch_add(1);  // open
    if (sleepers_.load() > 0) {
      std::lock_guard<std::mutex> lock(sleep_mutex_);
      wake_.notify_all();
    }
    job.run_share(0);
    generation_.fetch_add(1);  // close
    while (active_.load() != 0) ONNXPOOL_CPU_RELAX();
    job_ = nullptr;
    return job.result.load();
  }

 private:
  void work(int share, uint64_t seen) {
    for (;;) {
      if (!wait_for_change(seen)) return;
      seen = generation_.load();
      if (seen % 2 == 0) continue;  // a close, not a job
      active_.fetch_add(1);
      if (generation_.load() == seen) job_->run_share(share);
      active_.fetch_sub(1);
    }
  }

  // Spins, then sleeps, until the generation moves past `seen`. False on stop.
  bool wait_for_change(uint64_t seen) {
    const auto spin_until = std::chrono::steady_clock::now() + kSpinTime;
    for (int polls = 0; generation_.load() == seen; ++polls) {
      if (stop_.load()) return false;
      ONNXPOOL_CPU_RELAX();
      if (polls % 256 == 255 && std::chrono::steady_clock::now() > spin_until) {
        std::unique_lock<std::mutex> lock(sleep_mutex_);
        sleepers_.fetch_add(1);
        wake_.wait(lock, [&] { return stop_.load() || generation_.load() != seen; });
        sleepers_.fetch_sub(1);
      }
    }
    return !stop_.load();
  }

  std::vector<Share> shares_;  // one per thread; the caller's is shares_[0]
  std::vector<std::thread> threads_;
  std::atomic<uint64_t> generation_{0};
  std::atomic<int> active_{0};
  std::atomic<int> sleepers_{0};
  std::atomic<bool> stop_{false};
  Job* job_ = nullptr;  // valid while the generation is odd
  std::mutex sleep_mutex_;
  std::condition_variable wake_;
};

std::mutex g_pool_mutex;  // one job at a time; held while a job runs
std::unique_ptr<SpinningPool> g_pool;
int g_pool_threads = 1;
std::atomic<int> g_wanted_threads{1};
// The thread count whose pool could not start: its calls run on the caller
// until set_parallel_threads asks again (each failed start costs a system
// call per thread, too much to retry on every call).
std::atomic<int> g_refused_threads{0};

#ifdef ONNXPOOL_TEST_HOOKS
std::atomic<bool> g_last_first{false};
bool tasks_last_first() { return g_last_first.load(std::memory_order_relaxed); }
#else
bool tasks_last_first() { return false; }
#endif

int run_serially(void* user_context, LoopTask task, int min, int size, uint8_t* closure) {
  const bool last_first = tasks_last_first();
  for (int i = 0; i < size; ++i) {
    const int r = task(user_context, min + (last_first ? size - 1 - i : i), closure);
    if (r != 0) return r;
  }
  return 0;
}

}  // namespace

void set_parallel_threads(int threads) {
  g_wanted_threads.store(threads < 1 ? 1 : threads);
  g_refused_threads.store(0);
}

TaskThread this_task_thread() { return t_task_thread; }

TaskThreadScope::TaskThreadScope(TaskThread thread) : outer_(t_task_thread) { t_task_thread = thread; }
TaskThreadScope::~TaskThreadScope() { t_task_thread = outer_; }

void stop_own_threads() {
  std::lock_guard<std::mutex> lock(g_pool_mutex);
  g_pool.reset();
}

#ifdef ONNXPOOL_TEST_HOOKS
void refuse_thread_starts_for_testing(int after, int count) {
  g_starts_before_fault.store(after < 0 ? 0 : after);
  g_thread_start_faults.store(count < 0 ? 0 : count);
}
#endif

int pool_threads_running() {
  std::lock_guard<std::mutex> lock(g_pool_mutex);
  return g_pool ? g_pool_threads : 1;
}

#ifdef ONNXPOOL_TEST_HOOKS
void run_tasks_last_first_for_testing(bool on) { g_last_first.store(on); }

void stop_pool_for_testing() {
  std::lock_guard<std::mutex> lock(g_pool_mutex);
  g_pool.reset();
}
#endif

int parallel_for(void* user_context, LoopTask task, int min, int size, uint8_t* closure) {
  if (size <= 1) return run_serially(user_context, task, min, size, closure);
  // A loop inside one of the pool's tasks runs on that task's thread: its
  // caller may hold g_pool_mutex already, and locking a std::mutex the thread
  // owns, even with try_lock, is undefined; a caller's pool need not be
  // re-entrant. (Inside a job, the loop's width is at least 2; outside, 1.)
  if (t_task_thread.threads > 1) return run_serially(user_context, task, min, size, closure);
  if (const ThreadPool* pool = caller_pool()) {
    if (pool->threads <= 1) return run_serially(user_context, task, min, size, closure);
    return run_on_caller_pool(*pool, user_context, task, min, size, closure);
  }
  if (g_wanted_threads.load() == 1) return run_serially(user_context, task, min, size, closure);
  // Another caller holds the pool: run this job on the calling thread
  // rather than queue behind it (the machine's cores are busy anyway).
  std::unique_lock<std::mutex> lock(g_pool_mutex, std::try_to_lock);
  if (!lock.owns_lock()) return run_serially(user_context, task, min, size, closure);
  // use_thread_pool ran since the check above: start no thread of our own.
  if (caller_pool() != nullptr) return run_serially(user_context, task, min, size, closure);
  const int wanted = g_wanted_threads.load();
  if (!g_pool || g_pool_threads != wanted) {
    g_pool.reset();
    if (g_refused_threads.load() == wanted) return run_serially(user_context, task, min, size, closure);
    // Called from inside a kernel, whose frames no exception may cross: a
    // pool that cannot start (threads or memory refused) leaves this call,
    // and the next ones at this thread count, on the calling thread; the
    // result is the same, only slower.
    try {
      g_pool = std::make_unique<SpinningPool>(wanted - 1);
      g_pool_threads = wanted;
    } catch (const std::exception&) {
      g_refused_threads.store(wanted);
      return run_serially(user_context, task, min, size, closure);
    }
  }
  Job job;
  job.task = task;
  job.user_context = user_context;
  job.closure = closure;
  job.min = min;
  job.size = size;
  job.last_first = tasks_last_first();
  return g_pool->run(job);
}

}  // namespace onnxpool::detail
