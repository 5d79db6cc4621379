// The kernels' parallel-for (runtime/thread_pool.h), white box: every task
// index runs exactly once whatever the thread count and task count (shares
// of zero, one or many tasks), the first failing task's code comes back, and
// a thread stuck on one task does not strand the rest of its share: the other
// threads take them over.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include "thread_pool.h"

namespace onnxpool_test {
namespace {

using onnxpool::detail::parallel_for;
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
  void TearDown() override { set_parallel_threads(1); }
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
