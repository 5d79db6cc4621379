// use_thread_pool (onnxpool/thread_pool.h): the kernels' parallel loops run
// on the caller's pool, with the same results as on onnxpool's own threads,
// and onnxpool starts no thread of its own meanwhile. Pools: real worker
// threads (as many as declared, or more), one that runs everything on the
// calling thread, one that runs the tasks last first; changed while other
// threads call.
#include <gtest/gtest.h>

#include <dirent.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "onnxpool/onnxpool.h"
#include "support/pool_cases.h"
#include "support/pool_check.h"
#include "support/random.h"
#include "support/tensor_compare.h"
#include "support/test_settings.h"
#include "support/value_fills.h"

namespace onnxpool_test {
namespace {

using onnxpool::PoolOp;

// Runs every task on the calling thread, first to last or last to first,
// and counts its loops and tasks.
struct InlinePool {
  bool last_first = false;
  std::atomic<int> loops{0};
  std::atomic<int64_t> tasks{0};

  static void parallel_for(void* self, onnxpool::ParallelTask task, void* context, size_t count) {
    InlinePool& pool = *static_cast<InlinePool*>(self);
    pool.loops.fetch_add(1);
    for (size_t i = 0; i < count; ++i) {
      task(context, pool.last_first ? count - 1 - i : i);
      pool.tasks.fetch_add(1);
    }
  }
  onnxpool::ThreadPool as_pool(int threads) { return onnxpool::ThreadPool{parallel_for, this, threads}; }
};

// `workers` threads of its own plus the calling one take the tasks of each
// loop from a shared counter; loops from several calling threads at once
// queue up. Counts its loops and tasks.
class WorkerPool {
 public:
  explicit WorkerPool(int workers) {
    for (int i = 0; i < workers; ++i) threads_.emplace_back([this] { work(); });
  }
  ~WorkerPool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : threads_) t.join();
  }
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  static void parallel_for(void* self, onnxpool::ParallelTask task, void* context, size_t count) {
    static_cast<WorkerPool*>(self)->run(task, context, count);
  }
  onnxpool::ThreadPool as_pool(int threads) { return onnxpool::ThreadPool{parallel_for, this, threads}; }

  std::atomic<int> loops{0};
  std::atomic<int64_t> tasks{0};

 private:
  struct Loop {
    onnxpool::ParallelTask task;
    void* context;
    size_t count;
    std::atomic<size_t> next{0};
    size_t done = 0;  // under mutex_
    int helpers = 0;  // workers inside drain(), under mutex_
  };

  void drain(Loop& loop) {
    size_t ran = 0;
    for (size_t i = loop.next.fetch_add(1); i < loop.count; i = loop.next.fetch_add(1)) {
      loop.task(loop.context, i);
      ++ran;
    }
    tasks.fetch_add(static_cast<int64_t>(ran));
    std::lock_guard<std::mutex> lock(mutex_);
    loop.done += ran;
    finished_.notify_all();
  }

  Loop* loop_with_tasks_left() {
    for (Loop* loop : queue_) {
      if (loop->next.load() < loop->count) return loop;
    }
    return nullptr;
  }

  void run(onnxpool::ParallelTask task, void* context, size_t count) {
    loops.fetch_add(1);
    Loop loop{task, context, count};
    {
      std::lock_guard<std::mutex> lock(mutex_);
      queue_.push_back(&loop);
    }
    wake_.notify_all();
    drain(loop);
    // No worker may touch the loop once this returns: wait for the helpers
    // to leave, and take it off the queue before unlocking.
    std::unique_lock<std::mutex> lock(mutex_);
    finished_.wait(lock, [&] { return loop.done == loop.count && loop.helpers == 0; });
    for (auto it = queue_.begin(); it != queue_.end(); ++it) {
      if (*it == &loop) {
        queue_.erase(it);
        break;
      }
    }
  }

  void work() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      Loop* loop = nullptr;
      wake_.wait(lock, [&] { return stop_ || (loop = loop_with_tasks_left()) != nullptr; });
      if (stop_) return;
      ++loop->helpers;
      lock.unlock();
      drain(*loop);
      lock.lock();
      --loop->helpers;
      finished_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_, finished_;
  std::deque<Loop*> queue_;
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

int threads_of_this_process() {
  DIR* dir = opendir("/proc/self/task");
  if (dir == nullptr) return -1;
  int count = 0;
  while (dirent* entry = readdir(dir)) {
    if (entry->d_name[0] != '.') ++count;
  }
  closedir(dir);
  return count;
}

// The process's thread count once it is at most `expected`, or after 5 s:
// a joined thread can stay listed for a moment (under qemu-user its host
// thread exits after the guest's join has returned).
int threads_settled_at(int expected) {
  int count = threads_of_this_process();
  for (int waited_ms = 0; count > expected && waited_ms < 5000; waited_ms += 10) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    count = threads_of_this_process();
  }
  return count;
}

// One case per operator, large enough to be split into many tasks.
std::vector<PoolCase> split_cases() {
  std::vector<PoolCase> cases;
  uint64_t index = 0;
  for (PoolOp op : {PoolOp::kMaxPool, PoolOp::kAveragePool, PoolOp::kLpPool, PoolOp::kGlobalMaxPool,
                    PoolOp::kGlobalAveragePool, PoolOp::kGlobalLpPool}) {
    Random random(derive_seed(test_seed(), 9900, index++));
    const bool global = op == PoolOp::kGlobalMaxPool || op == PoolOp::kGlobalAveragePool ||
                        op == PoolOp::kGlobalLpPool;
    const PoolSpec spec = global ? p_only(2) : window_spec({3, 3}, {2, 2}, {1, 1, 1, 1});
    HostTensor X(ElementType::kFloat32, {2, 24, 57, 57});
    if (op == PoolOp::kMaxPool || op == PoolOp::kGlobalMaxPool) {
      fill_with_ties(random, &X, 0.01);
      cases.push_back(make_pool_case(op, spec, std::move(X)));
    } else {
      cases.push_back(make_filled_sum_pool_case(random, op, spec, std::move(X)));
    }
  }
  return cases;
}

// Each case's Y on onnxpool's own threads (2 of them).
std::vector<HostTensor> own_thread_results(const std::vector<PoolCase>& cases) {
  EXPECT_TRUE(onnxpool::set_num_threads(2));
  std::vector<HostTensor> results(cases.size());
  for (size_t i = 0; i < cases.size(); ++i) {
    // (MaxPool's reference check takes a MaxPoolCase; maxpool_property_test has it.)
    if (cases[i].op != PoolOp::kMaxPool) EXPECT_TRUE(pool_matches_reference(cases[i])) << cases[i].describe();
    EXPECT_TRUE(library_pool(cases[i], &results[i])) << cases[i].describe();
  }
  return results;
}

// Every case again, on whatever runs the loops now: the same bytes.
testing::AssertionResult same_results(const std::vector<PoolCase>& cases, const std::vector<HostTensor>& expected) {
  for (size_t i = 0; i < cases.size(); ++i) {
    HostTensor Y;
    const onnxpool::Status s = library_pool(cases[i], &Y);
    if (!s) return testing::AssertionFailure() << cases[i].describe() << ": " << s.message();
    testing::AssertionResult same = tensors_identical("Y on onnxpool's own threads", expected[i], Y);
    if (!same) return testing::AssertionFailure() << cases[i].describe() << ": " << same.message();
  }
  return testing::AssertionSuccess();
}

class CallerThreadPool : public testing::Test {
 protected:
  void TearDown() override { EXPECT_TRUE(onnxpool::set_num_threads(1)); }
};

TEST_F(CallerThreadPool, SameResultsOnEveryPool) {
  const std::vector<PoolCase> cases = split_cases();
  const std::vector<HostTensor> expected = own_thread_results(cases);
  {
    WorkerPool workers(1);
    ASSERT_TRUE(onnxpool::use_thread_pool(workers.as_pool(2)));
    EXPECT_TRUE(same_results(cases, expected)) << "worker pool, 2 threads";
    EXPECT_GE(workers.loops.load(), static_cast<int>(cases.size()));
    EXPECT_GT(workers.tasks.load(), workers.loops.load()) << "no loop was split into tasks";
    ASSERT_TRUE(onnxpool::set_num_threads(1));
  }
  {
    // More threads than declared: the tasks of a loop run on up to 5.
    WorkerPool workers(4);
    ASSERT_TRUE(onnxpool::use_thread_pool(workers.as_pool(2)));
    EXPECT_TRUE(same_results(cases, expected)) << "worker pool, 5 threads declared as 2";
    ASSERT_TRUE(onnxpool::set_num_threads(1));
  }
  for (bool last_first : {false, true}) {
    InlinePool inline_pool;
    inline_pool.last_first = last_first;
    ASSERT_TRUE(onnxpool::use_thread_pool(inline_pool.as_pool(3)));
    EXPECT_TRUE(same_results(cases, expected)) << "on the calling thread, last first: " << last_first;
    EXPECT_GT(inline_pool.tasks.load(), inline_pool.loops.load());
  }
}

TEST_F(CallerThreadPool, StartsNoThreadOfItsOwn) {
  const std::vector<PoolCase> cases = split_cases();
  const std::vector<HostTensor> expected = own_thread_results(cases);  // onnxpool's own worker is running
  const int with_own_worker = threads_of_this_process();
  ASSERT_GT(with_own_worker, 1);
  InlinePool inline_pool;
  ASSERT_TRUE(onnxpool::use_thread_pool(inline_pool.as_pool(4)));
  EXPECT_EQ(threads_settled_at(with_own_worker - 1), with_own_worker - 1) << "onnxpool's worker did not stop";
  EXPECT_TRUE(same_results(cases, expected));
  EXPECT_EQ(threads_of_this_process(), with_own_worker - 1) << "a call started a thread";
  EXPECT_GT(inline_pool.loops.load(), 0);
}

TEST_F(CallerThreadPool, OneThreadNeverCallsThePool) {
  const std::vector<PoolCase> cases = split_cases();
  const std::vector<HostTensor> expected = own_thread_results(cases);
  InlinePool inline_pool;
  ASSERT_TRUE(onnxpool::use_thread_pool(inline_pool.as_pool(1)));
  EXPECT_TRUE(same_results(cases, expected));
  EXPECT_EQ(inline_pool.loops.load(), 0);
}

TEST_F(CallerThreadPool, ThreadCountFollowsThePool) {
  InlinePool inline_pool;
  ASSERT_TRUE(onnxpool::set_num_threads(2));
  EXPECT_FALSE(onnxpool::uses_caller_thread_pool());
  ASSERT_TRUE(onnxpool::use_thread_pool(inline_pool.as_pool(3)));
  EXPECT_TRUE(onnxpool::uses_caller_thread_pool());
  EXPECT_EQ(onnxpool::num_threads(), 3);
  ASSERT_TRUE(onnxpool::set_num_threads(2));
  EXPECT_FALSE(onnxpool::uses_caller_thread_pool());
  EXPECT_EQ(onnxpool::num_threads(), 2);
}

TEST_F(CallerThreadPool, BadPoolsAreRefusedByName) {
  InlinePool inline_pool;
  ASSERT_TRUE(onnxpool::set_num_threads(2));
  onnxpool::ThreadPool no_function = inline_pool.as_pool(2);
  no_function.parallel_for = nullptr;
  onnxpool::Status s = onnxpool::use_thread_pool(no_function);
  EXPECT_EQ(s.code(), onnxpool::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("'parallel_for'"), std::string::npos) << s.message();
  for (int threads : {0, -1}) {
    s = onnxpool::use_thread_pool(inline_pool.as_pool(threads));
    EXPECT_EQ(s.code(), onnxpool::StatusCode::kInvalidArgument);
    EXPECT_NE(s.message().find("'threads'"), std::string::npos) << s.message();
  }
  EXPECT_FALSE(onnxpool::uses_caller_thread_pool()) << "a refused pool was taken";
  EXPECT_EQ(onnxpool::num_threads(), 2);
}

TEST_F(CallerThreadPool, CreatedOperatorsRunOnTheCurrentPool) {
  const std::vector<PoolCase> cases = split_cases();
  const std::vector<HostTensor> expected = own_thread_results(cases);
  const PoolCase& c = cases.front();
  onnxpool::PoolAttributes attributes;
  ASSERT_TRUE(onnxpool::PoolAttributes::parse(c.op, c.attributes, &attributes));
  onnxpool::PoolOperator op;
  ASSERT_TRUE(onnxpool::PoolOperator::create(attributes, c.X.shape(), c.X.type(), &op));
  WorkerPool workers(1);
  ASSERT_TRUE(onnxpool::use_thread_pool(workers.as_pool(2)));
  HostTensor Y(expected.front().type(), expected.front().shape());
  ASSERT_TRUE(op.run(c.X.view(), Y.view(), nullptr));
  EXPECT_TRUE(tensors_identical("Y on onnxpool's own threads", expected.front(), Y));
  EXPECT_GT(workers.tasks.load(), 1);
}

// Three threads call onnxpool in a loop while this one switches between two
// caller's pools and onnxpool's own threads.
TEST_F(CallerThreadPool, ChangesWhileOtherThreadsCall) {
  const std::vector<PoolCase> cases = split_cases();
  const std::vector<HostTensor> expected = own_thread_results(cases);
  WorkerPool workers(2);
  InlinePool inline_pool;
  std::atomic<bool> stop{false};
  std::atomic<int> calls{0}, failures{0};
  std::mutex failure_mutex;
  std::string first_failure;
  std::vector<std::thread> callers;
  for (int t = 0; t < 3; ++t) {
    callers.emplace_back([&, t] {
      for (size_t i = static_cast<size_t>(t); !stop.load(); i = (i + 1) % cases.size()) {
        HostTensor Y;
        const onnxpool::Status s = library_pool(cases[i], &Y);
        testing::AssertionResult same = s ? tensors_identical("Y on onnxpool's own threads", expected[i], Y)
                                          : testing::AssertionFailure() << s.message();
        calls.fetch_add(1);
        if (!same) {
          failures.fetch_add(1);
          std::lock_guard<std::mutex> lock(failure_mutex);
          if (first_failure.empty()) first_failure = cases[i].describe() + ": " + same.message();
        }
      }
    });
  }
  for (int round = 0; round < 30 || calls.load() < 60; ++round) {
    switch (round % 3) {
      case 0: ASSERT_TRUE(onnxpool::use_thread_pool(workers.as_pool(3))); break;
      case 1: ASSERT_TRUE(onnxpool::use_thread_pool(inline_pool.as_pool(2))); break;
      default: ASSERT_TRUE(onnxpool::set_num_threads(2)); break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  stop.store(true);
  for (std::thread& t : callers) t.join();
  // The pools outlive every call that may still hold them (they are
  // destroyed after this point, once the callers have joined).
  ASSERT_TRUE(onnxpool::set_num_threads(1));
  EXPECT_GE(calls.load(), 60);
  EXPECT_EQ(failures.load(), 0) << first_failure;
  EXPECT_GT(workers.tasks.load() + inline_pool.tasks.load(), 0);
}

}  // namespace
}  // namespace onnxpool_test
