// A tiny persistent thread pool whose workers busy-wait for work.
#pragma once

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

namespace onnxpool_bench {

// The bandwidth floor splits its bytes across threads; what it must not
// measure is thread start-up or a sleeping worker's wake-up (tens of
// microseconds on a VM, more than a small case takes). So the workers are
// started once and spin between tasks. They burn a core while the pool lives:
// keep one alive only for the benchmark that needs it.
class SpinPool {
 public:
  // `threads` counts the caller, which runs share 0; threads - 1 workers start.
  explicit SpinPool(int threads);
  ~SpinPool();
  SpinPool(const SpinPool&) = delete;
  SpinPool& operator=(const SpinPool&) = delete;

  int threads() const { return static_cast<int>(workers_.size()) + 1; }

  // Calls task(share) once for every share in [0, threads()), concurrently,
  // and returns when all have finished.
  template <typename Task>
  void run(Task& task) {
    run_erased(&task, [](void* t, int share) { (*static_cast<Task*>(t))(share); });
  }

 private:
  using Trampoline = void (*)(void* task, int share);
  void run_erased(void* task, Trampoline trampoline);
  void worker_loop(int share);

  std::vector<std::thread> workers_;
  void* task_ = nullptr;
  Trampoline trampoline_ = nullptr;
  std::atomic<uint64_t> generation_{0};  // bumped once per run(): the "go" signal
  std::atomic<int> busy_workers_{0};
  std::atomic<bool> stopping_{false};
};

}  // namespace onnxpool_bench
