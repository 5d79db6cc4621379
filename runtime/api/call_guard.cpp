#include "api/call_guard.h"

#include <atomic>

namespace onnxpool::detail {
#ifdef ONNXPOOL_TEST_HOOKS
namespace {

std::atomic<int> g_refusals{0};

}  // namespace
#endif

Status out_of_memory(const char* where) {
  return Status::internal(std::string(where) + ": out of memory (a host buffer of the runtime's was refused)");
}

Status unexpected_exception(const char* where, const std::exception& e) {
  return Status::internal(std::string(where) + ": " + e.what());
}

#ifdef ONNXPOOL_TEST_HOOKS
void note_host_allocation() {
  for (int left = g_refusals.load(); left > 0; left = g_refusals.load()) {
    if (g_refusals.compare_exchange_weak(left, left - 1)) throw std::bad_alloc();
  }
}

void refuse_host_allocations_for_testing(int count) { g_refusals.store(count < 0 ? 0 : count); }
#endif

}  // namespace onnxpool::detail
