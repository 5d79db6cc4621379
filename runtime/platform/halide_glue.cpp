// Halide runtime hooks. The default error handler prints and aborts the
// process; a library must never do that, so errors land in the CallContext.
#include "platform/halide_glue.h"

#include <HalideRuntime.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <string>
#include <thread>

#include "api/call_guard.h"
#include "execute/cuda_context.h"
#include "execute/device_allocations.h"
#include "onnxpool/pooling.h"
#include "onnxpool/thread_pool.h"
#include "platform/caller_pool.h"
#include "platform/scratch_allocator.h"
#include "platform/thread_pool.h"

namespace onnxpool::detail {
namespace {

std::atomic<int> g_threads{0};

void on_halide_error(void* user_context, const char* message) {
  if (user_context == nullptr) return;
  CallContext* context = static_cast<CallContext*>(user_context);
  std::lock_guard<std::mutex> lock(context->mutex);
  context->error += message;
}

// Halide's parallel loops: the thread pool's, then the call's scratch pool
// hears that the loop is over (CallScratch::after_parallel_loop).
int do_par_for(void* user_context, LoopTask task, int min, int size, uint8_t* closure) {
  const int result = parallel_for(user_context, task, min, size, closure);
  if (user_context != nullptr) static_cast<CallContext*>(user_context)->scratch.pool().after_parallel_loop();
  return result;
}

int hardware_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

void apply_thread_count() {
  const int n = g_threads.load();
  set_parallel_threads(n == 0 ? hardware_threads() : n);
}

}  // namespace

void ensure_halide_configured() {
  static std::once_flag once;
  std::call_once(once, [] {
    halide_set_error_handler(on_halide_error);
    halide_set_custom_do_par_for(do_par_for);
    install_scratch_allocator();
    use_cuda_primary_context();
#ifdef ONNXPOOL_TEST_HOOKS
    watch_device_allocations();
#endif
    apply_thread_count();
  });
}

}  // namespace onnxpool::detail

namespace onnxpool {

Status set_num_threads(int threads) {
  // Guarded: its message is built on the heap.
  return detail::guarded_call("set_num_threads", [&] {
    if (threads < 0) {
      return Status::invalid_argument("set_num_threads: threads must be >= 0 (0 = one per hardware thread), got " +
                                      std::to_string(threads));
    }
    detail::ensure_halide_configured();
    detail::g_threads.store(threads);
    detail::apply_thread_count();
    detail::set_caller_pool(nullptr);
    return Status::ok();
  });
}

int num_threads() {
  if (const ThreadPool* pool = detail::caller_pool()) return pool->threads;
  const int n = detail::g_threads.load();
  return n == 0 ? detail::hardware_threads() : n;
}

Status use_thread_pool(const ThreadPool& pool) {
  return detail::guarded_call("use_thread_pool", [&] {
    if (pool.parallel_for == nullptr) return Status::invalid_argument("use_thread_pool: 'parallel_for' is null");
    if (pool.threads < 1) {
      return Status::invalid_argument("use_thread_pool: 'threads' must be >= 1 (the threads that may run tasks at "
                                      "once, the calling one included), got " + std::to_string(pool.threads));
    }
    detail::ensure_halide_configured();
    // The pool first, then the own threads stop: a job that starts between
    // the two finds the caller's pool under the own pool's lock
    // (thread_pool.cpp) and starts no thread.
    detail::set_caller_pool(&pool);
    detail::stop_own_threads();
    return Status::ok();
  });
}

bool uses_caller_thread_pool() { return detail::caller_pool() != nullptr; }

}  // namespace onnxpool
