// Scratch memory for the kernels' row buffers, reused per thread.
//
// Why: each parallel task of a windowed kernel allocates its row buffer
// (store_at the task loop), and on small planes a task is one plane: MaxPool
// S3 (128 planes of 56x56) made 128 malloc/free pairs per call, about 5% of
// its cpu-clock samples. A thread keeps the blocks it freed (a few, each up
// to kLargestKept bytes) and hands them out again, so a call in steady state
// makes no allocator calls at all.
#include "scratch_allocator.h"

#include <HalideRuntime.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <utility>

namespace onnxpool::detail {
namespace {

// Halide's own allocator aligns to 128 bytes (the widest vector any target's
// code assumes); so does this one.
constexpr size_t kAlignment = 128;
// Larger blocks go back to the system: keeping them would pin memory a
// thread may never need again.
constexpr size_t kLargestKept = size_t(4) << 20;
constexpr int kBlocksKept = 4;

// Lies in the kAlignment bytes in front of every block handed out.
struct BlockHeader {
  void* allocation;  // what std::malloc returned
  size_t capacity;   // usable bytes after the header's slot
};

BlockHeader* header_of(void* block) { return static_cast<BlockHeader*>(block) - 1; }

void* new_block(size_t bytes) {
  if (bytes > SIZE_MAX - 2 * kAlignment) return nullptr;
  void* allocation = std::malloc(bytes + 2 * kAlignment);
  if (allocation == nullptr) return nullptr;
  // Leave room for the header, then round up to the alignment.
  const uintptr_t start = reinterpret_cast<uintptr_t>(allocation) + sizeof(BlockHeader);
  const uintptr_t aligned = (start + kAlignment - 1) & ~uintptr_t(kAlignment - 1);
  void* block = reinterpret_cast<void*>(aligned);
  *header_of(block) = BlockHeader{allocation, bytes};
  return block;
}

void release_block(void* block) { std::free(header_of(block)->allocation); }

struct ThreadBlocks {
  void* blocks[kBlocksKept] = {};
  int count = 0;

  ~ThreadBlocks() {
    for (int i = 0; i < count; ++i) release_block(blocks[i]);
    count = 0;
  }

  // The smallest kept block that holds `bytes`, taken out of the cache.
  void* take(size_t bytes) {
    int best = -1;
    for (int i = 0; i < count; ++i) {
      const size_t capacity = header_of(blocks[i])->capacity;
      if (capacity >= bytes && (best < 0 || capacity < header_of(blocks[best])->capacity)) best = i;
    }
    if (best < 0) return nullptr;
    void* block = blocks[best];
    blocks[best] = blocks[--count];
    return block;
  }

  // Keeps `block` if there is room, else the smallest kept block makes way
  // when `block` is larger (the next call is likely to want as much again).
  void give(void* block) {
    if (header_of(block)->capacity > kLargestKept) return release_block(block);
    if (count < kBlocksKept) {
      blocks[count++] = block;
      return;
    }
    int smallest = 0;
    for (int i = 1; i < count; ++i) {
      if (header_of(blocks[i])->capacity < header_of(blocks[smallest])->capacity) smallest = i;
    }
    if (header_of(blocks[smallest])->capacity < header_of(block)->capacity) std::swap(blocks[smallest], block);
    release_block(block);
  }
};

thread_local ThreadBlocks t_blocks;

std::atomic<int> g_refusals{0};

bool refuse_this_request() {
  for (int left = g_refusals.load(std::memory_order_relaxed); left > 0; left = g_refusals.load()) {
    if (g_refusals.compare_exchange_weak(left, left - 1)) return true;
  }
  return false;
}

void* scratch_malloc(void* /*user_context*/, size_t bytes) {
  if (refuse_this_request()) return nullptr;
  if (void* block = t_blocks.take(bytes)) return block;
  return new_block(bytes);
}

void scratch_free(void* /*user_context*/, void* block) {
  if (block != nullptr) t_blocks.give(block);
}

}  // namespace

void refuse_scratch_requests_for_testing(int count) { g_refusals.store(count < 0 ? 0 : count); }

int scratch_refusals_left() { return g_refusals.load(); }

void install_scratch_allocator() {
  halide_set_custom_malloc(scratch_malloc);
  halide_set_custom_free(scratch_free);
}

}  // namespace onnxpool::detail
