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
int do_par_for(void* user_context, ParallelTask task, int min, int size, uint8_t* closure) {
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
    return Status::ok();
  });
}

int num_threads() {
  const int n = detail::g_threads.load();
  return n == 0 ? detail::hardware_threads() : n;
}

}  // namespace onnxpool
