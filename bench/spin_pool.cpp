#include "spin_pool.h"

namespace onnxpool_bench {
namespace {

// Tells the core it is in a spin loop, so the sibling hyper-thread (or the
// hypervisor) gets the execution resources.
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#else
  std::this_thread::yield();
#endif
}

}  // namespace

SpinPool::SpinPool(int threads) {
  for (int share = 1; share < threads; ++share) {
    workers_.emplace_back([this, share] { worker_loop(share); });
  }
}

SpinPool::~SpinPool() {
  stopping_.store(true, std::memory_order_release);
  for (std::thread& worker : workers_) worker.join();
}

void SpinPool::run_erased(void* task, Trampoline trampoline) {
  task_ = task;
  trampoline_ = trampoline;
  busy_workers_.store(static_cast<int>(workers_.size()), std::memory_order_relaxed);
  // Release: workers that see the new generation also see task_ and trampoline_.
  generation_.fetch_add(1, std::memory_order_release);
  trampoline(task, 0);
  while (busy_workers_.load(std::memory_order_acquire) != 0) cpu_relax();
}

void SpinPool::worker_loop(int share) {
  uint64_t seen = 0;
  for (;;) {
    uint64_t current;
    while ((current = generation_.load(std::memory_order_acquire)) == seen) {
      if (stopping_.load(std::memory_order_acquire)) return;
      cpu_relax();
    }
    seen = current;
    trampoline_(task_, share);
    busy_workers_.fetch_sub(1, std::memory_order_release);
  }
}

}  // namespace onnxpool_bench
