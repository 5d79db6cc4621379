#include "execute/device_allocations.h"

#include <HalideRuntime.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <mutex>

#ifdef ONNXPOOL_TEST_HOOKS
namespace onnxpool::detail {
namespace {

// The two entry points' C signatures (cl_mem_flags is a 64-bit bitfield,
// CUdeviceptr a 64-bit integer, cl_int and CUresult 32-bit).
using ClCreateBuffer = void* (*)(void* context, uint64_t flags, size_t size, void* host, int32_t* error);
using CuMemAlloc = int (*)(uint64_t* pointer, size_t size);

constexpr int32_t kClMemObjectAllocationFailure = -4;
constexpr int kCudaErrorOutOfMemory = 2;

// Tests only; allocations are rare next to what a device allocation costs,
// so one lock serves them while refusals are armed.
std::atomic<bool> armed{false};
std::mutex refusal_mutex;
int passes_left = 0, refusals_left = 0;
std::atomic<int64_t> asked{0};
halide_get_library_symbol_t halide_lookup = nullptr;
// Written once each, when Halide first asks for the name (under its lock).
std::atomic<ClCreateBuffer> driver_cl_create_buffer{nullptr};
std::atomic<CuMemAlloc> driver_cu_mem_alloc{nullptr};
std::atomic<CuMemAlloc> driver_cu_mem_alloc_v2{nullptr};

bool take_refusal() {
  asked.fetch_add(1, std::memory_order_relaxed);
  if (!armed.load(std::memory_order_acquire)) return false;
  std::lock_guard<std::mutex> lock(refusal_mutex);
  if (passes_left > 0) {
    --passes_left;
    return false;
  }
  if (refusals_left == 0) return false;
  armed.store(--refusals_left > 0, std::memory_order_release);
  return true;
}

void* cl_create_buffer(void* context, uint64_t flags, size_t size, void* host, int32_t* error) {
  if (take_refusal()) {
    if (error != nullptr) *error = kClMemObjectAllocationFailure;
    return nullptr;
  }
  return driver_cl_create_buffer.load(std::memory_order_relaxed)(context, flags, size, host, error);
}

int cu_mem_alloc(uint64_t* pointer, size_t size) {
  if (take_refusal()) return kCudaErrorOutOfMemory;
  return driver_cu_mem_alloc.load(std::memory_order_relaxed)(pointer, size);
}

int cu_mem_alloc_v2(uint64_t* pointer, size_t size) {
  if (take_refusal()) return kCudaErrorOutOfMemory;
  return driver_cu_mem_alloc_v2.load(std::memory_order_relaxed)(pointer, size);
}

template <class Fn>
void* stand_in(void* found, std::atomic<Fn>* driver, Fn ours) {
  driver->store(reinterpret_cast<Fn>(found), std::memory_order_relaxed);
  return reinterpret_cast<void*>(ours);
}

void* lookup(void* library, const char* name) {
  void* found = halide_lookup(library, name);
  if (found == nullptr || name == nullptr) return found;
  if (std::strcmp(name, "clCreateBuffer") == 0) return stand_in(found, &driver_cl_create_buffer, &cl_create_buffer);
  if (std::strcmp(name, "cuMemAlloc_v2") == 0) return stand_in(found, &driver_cu_mem_alloc_v2, &cu_mem_alloc_v2);
  if (std::strcmp(name, "cuMemAlloc") == 0) return stand_in(found, &driver_cu_mem_alloc, &cu_mem_alloc);
  return found;
}

}  // namespace

void watch_device_allocations() {
  // The setter hands back the lookup it replaces, which does the real work.
  halide_lookup = halide_set_custom_get_library_symbol(lookup);
}

void refuse_device_allocations_for_testing(int count, int passes) {
  std::lock_guard<std::mutex> lock(refusal_mutex);
  refusals_left = std::max(count, 0);
  passes_left = std::max(passes, 0);
  armed.store(refusals_left > 0, std::memory_order_release);
}

int device_refusals_left() {
  std::lock_guard<std::mutex> lock(refusal_mutex);
  return refusals_left;
}

int64_t device_allocations_asked() { return asked.load(std::memory_order_relaxed); }

}  // namespace onnxpool::detail
#endif  // ONNXPOOL_TEST_HOOKS
