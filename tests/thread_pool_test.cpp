// The kernels' parallel-for (runtime/platform/thread_pool.h), white box: every task
// index runs exactly once whatever the thread count and task count (shares
// of zero, one or many tasks), the first failing task's code comes back, and
// a thread stuck on one task does not strand the rest of its share: the other
// threads take them over. Tasks handed out last first (a test hook) still run
// once each, and a loop inside a task runs on that task's thread.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include "platform/thread_pool.h"

namespace onnxpool_test {
namespace {

using onnxpool::detail::parallel_for;
using onnxpool::detail::run_tasks_last_first_for_testing;
using onnxpool::detail::set_parallel_threads;

struct Counts {
  std::vector<std::atomic<int>> runs;
  int min = 0;
  explicit Counts(int size, int first) : runs(size), min(first) {}
};

int count_run(void*, int task, uint8_t* closure) {
  Counts* counts = reinterpret_cast<Counts*>(closure);
  counts->runs[task - counts->min].fetch_add(1);
  return 0;
}

class ThreadPoolTest : public ::testing::Test {
 protected:
  void TearDown() override {
    set_parallel_threads(1);
    run_tasks_last_first_for_testing(false);
  }
};

TEST_F(ThreadPoolTest, EveryTaskRunsExactlyOnce) {
  for (int threads : {1, 2, 3, 5}) {
    set_parallel_threads(threads);
    for (int size : {0, 1, 2, 3, 4, 7, 64, 1001}) {
      for (int first : {0, 13}) {
        Counts counts(size, first);
        ASSERT_EQ(parallel_for(nullptr, count_run, first, size, reinterpret_cast<uint8_t*>(&counts)), 0);
        for (int i = 0; i < size; ++i) {
          ASSERT_EQ(counts.runs[i].load(), 1) << "threads " << threads << ", size " << size << ", task " << first + i;
        }
      }
    }
  }
}

int fail_on_odd(void*, int task, uint8_t*) { return task % 2 == 1 ? -7 : 0; }

// The fault tests' hook: tasks handed out last first, each still once.
int record_order(void*, int task, uint8_t* closure) {
  reinterpret_cast<std::vector<int>*>(closure)->push_back(task);
  return 0;
}

TEST_F(ThreadPoolTest, LastFirstOrderRunsEveryTaskOnceFromTheLast) {
  run_tasks_last_first_for_testing(true);
  std::vector<int> order;
  ASSERT_EQ(parallel_for(nullptr, record_order, 3, 6, reinterpret_cast<uint8_t*>(&order)), 0);
  EXPECT_EQ(order, (std::vector<int>{8, 7, 6, 5, 4, 3})) << "one thread: the whole job in reverse";
  for (int threads : {2, 3, 5}) {
    set_parallel_threads(threads);
    for (int size : {2, 7, 64}) {
      Counts counts(size, 10);
      ASSERT_EQ(parallel_for(nullptr, count_run, 10, size, reinterpret_cast<uint8_t*>(&counts)), 0);
      for (int i = 0; i < size; ++i) EXPECT_EQ(counts.runs[i].load(), 1) << threads << " threads, task " << i;
    }
  }
  run_tasks_last_first_for_testing(false);
}

// A parallel loop inside a task of another (no schedule makes one today)
// runs on the task's own thread, each inner task once.
struct Nested {
  std::vector<std::atomic<int>> inner_runs;
  std::atomic<int> inner_on_another_thread{0};
  explicit Nested(int outer) : inner_runs(outer * 4) {}
};

struct InnerLoop {
  Nested* nested;
  int outer;
  std::thread::id thread;
};

int inner_task(void*, int task, uint8_t* closure) {
  InnerLoop* loop = reinterpret_cast<InnerLoop*>(closure);
  loop->nested->inner_runs[loop->outer * 4 + task].fetch_add(1);
  if (std::this_thread::get_id() != loop->thread) loop->nested->inner_on_another_thread.fetch_add(1);
  return 0;
}

int outer_task(void*, int task, uint8_t* closure) {
  InnerLoop loop{reinterpret_cast<Nested*>(closure), task, std::this_thread::get_id()};
  return parallel_for(nullptr, inner_task, 0, 4, reinterpret_cast<uint8_t*>(&loop));
}

TEST_F(ThreadPoolTest, ALoopInsideATaskRunsOnThatTasksThread) {
  for (int threads : {2, 4}) {
    set_parallel_threads(threads);
    Nested nested(16);
    ASSERT_EQ(parallel_for(nullptr, outer_task, 0, 16, reinterpret_cast<uint8_t*>(&nested)), 0);
    for (int i = 0; i < 64; ++i) EXPECT_EQ(nested.inner_runs[i].load(), 1) << threads << " threads, inner task " << i;
    EXPECT_EQ(nested.inner_on_another_thread.load(), 0) << threads << " threads";
  }
}

TEST_F(ThreadPoolTest, AFailingTaskReportsItsCode) {
  for (int threads : {1, 2, 3}) {
    set_parallel_threads(threads);
    EXPECT_EQ(parallel_for(nullptr, fail_on_odd, 0, 40, nullptr), -7) << threads;
    EXPECT_EQ(parallel_for(nullptr, fail_on_odd, 0, 1, nullptr), 0) << threads;
  }
}

// Task 0 waits until every other task is done. Whichever thread runs it, the
// rest of that thread's share can only finish if another thread takes it.
struct Blocker {
  int size = 0;
  std::atomic<int> done{0};
  std::atomic<bool> timed_out{false};
};

int wait_for_the_others(void*, int task, uint8_t* closure) {
  Blocker* b = reinterpret_cast<Blocker*>(closure);
  if (task == 0) {
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (b->done.load() != b->size - 1) {
      if (std::chrono::steady_clock::now() > give_up) {
        b->timed_out.store(true);
        return 0;
      }
      std::this_thread::yield();
    }
  } else {
    b->done.fetch_add(1);
  }
  return 0;
}

TEST_F(ThreadPoolTest, AStuckThreadsShareIsTakenOverByTheOthers) {
  for (int threads : {2, 3}) {
    set_parallel_threads(threads);
    for (int size : {4, 9, 64}) {
      Blocker blocker;
      blocker.size = size;
      ASSERT_EQ(parallel_for(nullptr, wait_for_the_others, 0, size, reinterpret_cast<uint8_t*>(&blocker)), 0);
      EXPECT_FALSE(blocker.timed_out.load()) << "threads " << threads << ", size " << size;
      EXPECT_EQ(blocker.done.load(), size - 1);
    }
  }
}

}  // namespace
}  // namespace onnxpool_test
