// The allocator behind the kernels' scratch buffers (halide_malloc).
//
// Each public call owns a CallScratch (ScratchScope, in guarded_call;
// Halide passes the launch's CallContext to halide_malloc as user_context).
// A request that no free block of the call fits is provisioned for every
// thread of the parallel loop making it: one block for the requester and
// one spare for each other thread, all taken at once, before the requesting
// task has written anything (another thread takes at most one spare from
// each such provisioning). The other threads' tasks then find their blocks
// in the call's pool, so a refusal from the system comes at the first
// task's request, when Y is still untouched, not after some tasks have
// written their rows of Y (scratch_allocator.cpp says what this rests on,
// and the case it misses); and once one request has failed, the call's
// later ones fail too, so no other task starts writing. Blocks freed during
// the call serve its later requests; at the call's end they go to a shared
// cache that the next calls' provisioning draws from, so a call in steady
// state makes no allocator calls at all.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>

namespace onnxpool::detail {

struct ScratchBlock;

class CallScratch {
 public:
  CallScratch() = default;
  ~CallScratch() { finish_call(); }
  CallScratch(const CallScratch&) = delete;
  CallScratch& operator=(const CallScratch&) = delete;

  // A block of at least `bytes` (128-byte aligned), or nullptr when the
  // system refused the memory for it or for an earlier request of the call.
  void* take(size_t bytes);
  void give(void* block);
  // After each parallel loop of the call: the blocks its threads freed go
  // where any thread of the next loop finds them (the next loop's threads,
  // or the next piece's, need not be the same ones).
  void after_parallel_loop();
  // The grain (rows or planes per task) a launch of `kernel` may take: what
  // it wants, but no more than the call's first launch of that kernel took.
  // A task's scratch grows with its grain, so the later launches of a kernel
  // (pieces of a large plane, groups of planes) fit in the blocks the first
  // provisioned and ask the system for none after Y was written.
  int64_t grain_for(const void* kernel, int64_t wanted);
  // Hands the call's blocks to the shared cache and forgets the call, so the
  // pool serves the next call as a new one would.
  void finish_call();

 private:
  struct FirstGrain {
    const void* kernel = nullptr;
    int64_t grain = 0;
  };
  // Notes that the thread of index `index` uses its list and its bit set:
  // finish_call and after_parallel_loop visit only the lists used, not all
  // 64 cache lines.
  void note_list_used(int index);

  // Blocks each thread of the call's parallel loops freed, by its index
  // there: only that thread touches its list, so reuse takes no lock. Each
  // list has a cache line of its own: packed into one, every task's take
  // and give moved the line between the cores (docs/design-decisions.md,
  // "Thread pool and task shares").
  static constexpr int kThreadLists = 64;
  struct alignas(64) ThreadList {
    ScratchBlock* freed = nullptr;
  };
  ThreadList freed_by_thread_[kThreadLists];
  std::atomic<int> lists_used_{0};  // lists [0, lists_used_) may hold blocks or bits
  std::mutex mutex_;
  // Under mutex_: other threads' spares, and blocks freed by threads past
  // kThreadLists; the provisionings so far, and per thread the ones (of the
  // first 64) it took a spare from.
  ScratchBlock* shared_ = nullptr;
  uint32_t batches_ = 0;
  uint64_t batches_taken_[kThreadLists] = {};
  std::atomic<bool> refused_{false};  // once the system refused one, every request fails
  // Under mutex_. A call launches one or two windowed kernels (LpPool's
  // float32 sums, then its exact kernel on the planes they flag); past four,
  // a kernel goes uncapped.
  FirstGrain first_grains_[4];
};

// The pool of the public call running on this thread. The first scope on a
// thread (the entry point's guarded_call) opens the thread's pool for the
// call and finishes it at the end; the scopes inside it (each kernel
// launch's CallContext) use the same one, so a call that launches again
// (pieces of a large plane, segments, LpPool's redo) finds the blocks its
// first launch took instead of asking the system after Y was written.
class ScratchScope {
 public:
  ScratchScope();
  ~ScratchScope();
  ScratchScope(const ScratchScope&) = delete;
  ScratchScope& operator=(const ScratchScope&) = delete;
  CallScratch& pool() { return *pool_; }

 private:
  CallScratch* pool_;
  // The outermost scope: one pool per thread, kept between calls, since a
  // CallScratch is 4.6 KB of cache-line-padded lists, too much to clear for
  // every call (T0: scratch set-up and release were 15% of a call's samples).
  bool outermost_ = false;
};

// Makes halide_malloc/halide_free use the call's pool (or, for a request
// without a CallContext, the shared cache). Call once, before the first
// kernel runs.
void install_scratch_allocator();

#ifdef ONNXPOOL_TEST_HOOKS
// Tests: after the next `after` blocks taken from the system, the next
// `count` requests to the system fail as a failed malloc does (a kernel
// then returns Halide's out-of-memory error); what is left of them.
void refuse_scratch_allocations_for_testing(int after, int count);
int scratch_refusals_left();
// Tests: blocks taken from the system since the program started.
long scratch_allocations_made();
// Tests: empties the shared cache, so the next call takes its blocks from
// the system.
void release_cached_scratch_for_testing();
#endif

}  // namespace onnxpool::detail
