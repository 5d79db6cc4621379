// Scratch memory for the kernels' buffers (row buffers, window stages).
//
// Why a pool per call: a kernel's parallel tasks each take their scratch as
// they start, and a task writes its rows of Y as soon as it has it. Taken
// from the system one task at a time, a refusal after some tasks finished
// left their rows of Y written. Every heap request of the kernels comes at
// the start of a loop, before that loop writes anything, and every task of
// a launch asks for the same sizes: the CPU schedules bound each task-level
// buffer to a full task's (Func::bound_storage, fold_storage), so a thread
// that starts with the smaller last task of a plane provisions full blocks
// too. scratch_allocator.h says how the pool uses that. A later launch of the
// call (pieces of a large plane, groups of planes) takes no larger grain than
// the first (grain_for), so its blocks fit too; what the pool cannot cover is
// a later launch of another kernel with larger blocks (docs/reliability.md,
// "Still open"). onnxpool_fault_injection_test refuses each of a call's
// system allocations in turn, at 1, 2 and 4 threads, on every kernel family,
// uneven tasks included, and checks that Y is untouched.
//
// Why reuse: on small planes a task is one plane, so MaxPool S3 (128 planes
// of 56x56) made 128 malloc/free pairs per call, about 5% of its cpu-clock
// samples. Blocks freed during a call serve its later tasks, and the shared
// cache keeps a few blocks (each up to kLargestKept bytes) for the next
// calls.
#include "platform/scratch_allocator.h"

#include <HalideRuntime.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>

#include "platform/halide_glue.h"
#include "platform/thread_pool.h"

namespace onnxpool::detail {

// Lies in the kAlignment bytes in front of every block handed out.
struct ScratchBlock {
  void* allocation;         // what std::malloc returned
  size_t capacity;          // usable bytes after the header's slot
  ScratchBlock* next;       // in a free list
  const void* provisioner;  // a spare: the thread it was provisioned by, which may not take it
  uint32_t batch;           // a spare: its provisioning's number in the call; else kNoBatch
};

namespace {

constexpr uint32_t kNoBatch = UINT32_MAX;

// Halide's own allocator aligns to 128 bytes (the widest vector any target's
// code assumes); so does this one.
constexpr size_t kAlignment = 128;
static_assert(sizeof(ScratchBlock) <= kAlignment);
// Larger blocks go back to the system: keeping them would pin memory no
// call may need again.
constexpr size_t kLargestKept = size_t(4) << 20;
// One block per thread for a few calls' buffers.
constexpr int kBlocksKept = 32;

ScratchBlock* header_of(void* block) {
  return reinterpret_cast<ScratchBlock*>(static_cast<uint8_t*>(block) - sizeof(ScratchBlock));
}
void* memory_of(ScratchBlock* header) { return reinterpret_cast<uint8_t*>(header) + sizeof(ScratchBlock); }

#ifdef ONNXPOOL_TEST_HOOKS
// Injected refusals: system allocations that succeed first, then refusals.
std::atomic<int> g_allocations_before_refusal{0};
std::atomic<int> g_refusals{0};
std::atomic<long> g_allocations{0};

bool refuse_this_allocation() {
  if (g_refusals.load(std::memory_order_relaxed) <= 0) return false;
  for (int before = g_allocations_before_refusal.load(); before > 0; before = g_allocations_before_refusal.load()) {
    if (g_allocations_before_refusal.compare_exchange_weak(before, before - 1)) return false;
  }
  for (int left = g_refusals.load(); left > 0; left = g_refusals.load()) {
    if (g_refusals.compare_exchange_weak(left, left - 1)) return true;
  }
  return false;
}
void count_allocation() { g_allocations.fetch_add(1, std::memory_order_relaxed); }
#else
bool refuse_this_allocation() { return false; }
void count_allocation() {}
#endif

ScratchBlock* new_block(size_t bytes) {
  if (bytes > SIZE_MAX - 2 * kAlignment) return nullptr;
  if (refuse_this_allocation()) return nullptr;
  void* allocation = std::malloc(bytes + 2 * kAlignment);
  if (allocation == nullptr) return nullptr;
  count_allocation();
  // Leave room for the header, then round up to the alignment.
  const uintptr_t start = reinterpret_cast<uintptr_t>(allocation) + sizeof(ScratchBlock);
  const uintptr_t aligned = (start + kAlignment - 1) & ~uintptr_t(kAlignment - 1);
  ScratchBlock* header = header_of(reinterpret_cast<void*>(aligned));
  *header = ScratchBlock{allocation, bytes, nullptr, nullptr, kNoBatch};
  return header;
}

void release_block(ScratchBlock* header) { std::free(header->allocation); }

void push_front(ScratchBlock** list, ScratchBlock* b) {
  b->next = *list;
  *list = b;
}

// Moves every block of `*from` onto `*onto`.
void move_all(ScratchBlock** from, ScratchBlock** onto) {
  while (ScratchBlock* b = *from) {
    *from = b->next;
    push_front(onto, b);
  }
}

// Unlinks and returns the smallest block of `*list` that holds `bytes` and
// that `may_take` allows; nullptr if none.
template <typename MayTake>
ScratchBlock* take_best_fit(ScratchBlock** list, size_t bytes, MayTake may_take) {
  ScratchBlock** best = nullptr;
  for (ScratchBlock** link = list; *link != nullptr; link = &(*link)->next) {
    const ScratchBlock* b = *link;
    if (b->capacity < bytes || !may_take(*b)) continue;
    if (best == nullptr || b->capacity < (*best)->capacity) best = link;
  }
  if (best == nullptr) return nullptr;
  ScratchBlock* found = *best;
  *best = found->next;
  found->next = nullptr;
  found->provisioner = nullptr;
  return found;
}

ScratchBlock* take_best_fit(ScratchBlock** list, size_t bytes) {
  return take_best_fit(list, bytes, [](const ScratchBlock&) { return true; });
}

// Blocks that finished calls left, for the next calls.
class SharedCache {
 public:
  ScratchBlock* take(size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    ScratchBlock* b = take_best_fit(&blocks_, bytes);
    if (b != nullptr) --count_;
    return b;
  }

  // Keeps `b` if there is room, else the smallest kept block makes way
  // when `b` is larger (the next call is likely to want as much again).
  void give(ScratchBlock* b) {
    std::lock_guard<std::mutex> lock(mutex_);
    keep(b);
  }

  // give() for each block of a list, under one lock.
  void give_all(ScratchBlock* list) {
    std::lock_guard<std::mutex> lock(mutex_);
    while (list != nullptr) {
      ScratchBlock* b = list;
      list = b->next;
      keep(b);
    }
  }

  void clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    while (blocks_ != nullptr) {
      ScratchBlock* b = blocks_;
      blocks_ = b->next;
      release_block(b);
    }
    count_ = 0;
  }

 private:
  // Under mutex_.
  void keep(ScratchBlock* b) {
    if (b->capacity > kLargestKept) return release_block(b);
    if (count_ == kBlocksKept) {
      ScratchBlock** smallest = &blocks_;
      for (ScratchBlock** link = &blocks_; *link != nullptr; link = &(*link)->next) {
        if ((*link)->capacity < (*smallest)->capacity) smallest = link;
      }
      if ((*smallest)->capacity >= b->capacity) return release_block(b);
      ScratchBlock* out = *smallest;
      *smallest = out->next;
      release_block(out);
      --count_;
    }
    b->provisioner = nullptr;
    b->batch = kNoBatch;
    push_front(&blocks_, b);
    ++count_;
  }

  std::mutex mutex_;
  ScratchBlock* blocks_ = nullptr;
  int count_ = 0;
};

SharedCache& shared_cache() {
  // Never destroyed: kernels may run from other static destructors.
  static SharedCache* cache = new SharedCache;
  return *cache;
}

ScratchBlock* cached_or_new(size_t bytes) {
  if (ScratchBlock* b = shared_cache().take(bytes)) return b;
  return new_block(bytes);
}

// A tag that tells this thread's spares from others'.
const void* this_thread_tag() {
  static thread_local char tag;
  return &tag;
}

void* scratch_malloc(void* user_context, size_t bytes) {
  if (user_context == nullptr) {
    ScratchBlock* b = cached_or_new(bytes);
    return b == nullptr ? nullptr : memory_of(b);
  }
  return static_cast<CallContext*>(user_context)->scratch.pool().take(bytes);
}

void scratch_free(void* user_context, void* block) {
  if (block == nullptr) return;
  if (user_context == nullptr) return shared_cache().give(header_of(block));
  static_cast<CallContext*>(user_context)->scratch.pool().give(block);
}

void give_all(ScratchBlock** list) {
  if (*list == nullptr) return;
  shared_cache().give_all(*list);
  *list = nullptr;
}

// The pool of the call running on this thread, if any.
thread_local CallScratch* t_scope_pool = nullptr;

CallScratch& this_thread_pool() {
  static thread_local CallScratch pool;
  return pool;
}

}  // namespace

ScratchScope::ScratchScope() : pool_(t_scope_pool) {
  if (pool_ == nullptr) {
    pool_ = t_scope_pool = &this_thread_pool();
    outermost_ = true;
  }
}

ScratchScope::~ScratchScope() {
  if (!outermost_) return;
  pool_->finish_call();
  t_scope_pool = nullptr;
}

void CallScratch::note_list_used(int index) {
  int used = lists_used_.load(std::memory_order_relaxed);
  while (used <= index && !lists_used_.compare_exchange_weak(used, index + 1, std::memory_order_relaxed)) {
  }
}

void CallScratch::finish_call() {
  // The call's loops are over: no other thread touches the pool now.
  const int used = lists_used_.load(std::memory_order_relaxed);
  for (int i = 0; i < used; ++i) {
    give_all(&freed_by_thread_[i].freed);
    batches_taken_[i] = 0;
  }
  give_all(&shared_);
  lists_used_.store(0, std::memory_order_relaxed);
  batches_ = 0;
  refused_.store(false);
  for (FirstGrain& first : first_grains_) first = FirstGrain{};
}

void* CallScratch::take(size_t bytes) {
  if (refused_.load(std::memory_order_relaxed)) return nullptr;
  const TaskThread thread = this_task_thread();
  // A block this thread freed earlier in the call.
  if (thread.index < kThreadLists) {
    if (ScratchBlock* b = take_best_fit(&freed_by_thread_[thread.index].freed, bytes)) return memory_of(b);
  }
  const void* me = this_thread_tag();
  std::lock_guard<std::mutex> lock(mutex_);
  // The call has failed: its other tasks must not go on to write Y.
  if (refused_.load()) return nullptr;
  // A spare another thread provisioned, at most one from each of its
  // provisionings: a task that holds two blocks of one size must not take
  // both spares another thread's first task will ask for, and then write Y
  // before that thread provisions again.
  uint64_t* taken = nullptr;
  if (thread.index < kThreadLists) {
    note_list_used(thread.index);
    taken = &batches_taken_[thread.index];
  }
  const auto may_take = [&](const ScratchBlock& b) {
    return b.provisioner != me && (taken == nullptr || b.batch >= 64 || (*taken >> b.batch & 1) == 0);
  };
  if (ScratchBlock* b = take_best_fit(&shared_, bytes, may_take)) {
    if (taken != nullptr && b->batch < 64) *taken |= uint64_t{1} << b->batch;
    return memory_of(b);
  }
  // The first request of its kind: this thread's block and a spare for each
  // other thread of the loop, or none of them.
  ScratchBlock* spares = nullptr;
  ScratchBlock* mine = cached_or_new(bytes);
  for (int i = 1; i < thread.threads && mine != nullptr; ++i) {
    ScratchBlock* spare = cached_or_new(bytes);
    if (spare == nullptr) {
      shared_cache().give(mine);
      mine = nullptr;
      break;
    }
    spare->provisioner = me;
    spare->batch = batches_;
    push_front(&spares, spare);
  }
  ++batches_;
  if (mine == nullptr) {
    give_all(&spares);
    refused_.store(true);
    return nullptr;
  }
  move_all(&spares, &shared_);
  return memory_of(mine);
}

void CallScratch::give(void* block) {
  ScratchBlock* b = header_of(block);
  b->provisioner = nullptr;
  b->batch = kNoBatch;
  const TaskThread thread = this_task_thread();
  if (thread.index < kThreadLists) {
    note_list_used(thread.index);
    return push_front(&freed_by_thread_[thread.index].freed, b);
  }
  std::lock_guard<std::mutex> lock(mutex_);
  push_front(&shared_, b);
}

void CallScratch::after_parallel_loop() {
  // A loop nested in another's task: the outer loop's threads still use
  // their lists.
  if (this_task_thread().threads > 1) return;
  const int used = lists_used_.load(std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(mutex_);
  for (int i = 0; i < used; ++i) move_all(&freed_by_thread_[i].freed, &shared_);
}

int64_t CallScratch::grain_for(const void* kernel, int64_t wanted) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (FirstGrain& first : first_grains_) {
    if (first.kernel == kernel) return std::min(wanted, first.grain);
    if (first.kernel == nullptr) {
      first = {kernel, wanted};
      return wanted;
    }
  }
  return wanted;
}

#ifdef ONNXPOOL_TEST_HOOKS
void refuse_scratch_allocations_for_testing(int after, int count) {
  g_allocations_before_refusal.store(after < 0 ? 0 : after);
  g_refusals.store(count < 0 ? 0 : count);
}

int scratch_refusals_left() { return g_refusals.load(); }

long scratch_allocations_made() { return g_allocations.load(); }

void release_cached_scratch_for_testing() { shared_cache().clear(); }
#endif

void install_scratch_allocator() {
  halide_set_custom_malloc(scratch_malloc);
  halide_set_custom_free(scratch_free);
}

}  // namespace onnxpool::detail
