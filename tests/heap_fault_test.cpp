// Every heap allocation a pooling call makes, refused in turn (white box).
//
// This program replaces the global operator new, so it sees every allocation
// of the runtime's own, not only the places that announce one
// (note_host_allocation, which onnxpool_fault_injection_test refuses): the
// views of a call in pieces, the partial results of a plane reduced in
// sub-planes, LpPool's exact redo, the host copies of segments, the strings
// of a status. On the CPU every other call makes none: the first test checks
// that, and that its kernels' scratch comes from the runtime's cache. For
// one node of every path that allocates, at 1 and 2 threads (on a GPU
// backend, every node: device buffers), the sweep counts a call's allocations
// and refuses the first, then the second, and so on: each refusal must end
// the call in kInternal, "out of memory", with every byte of Y and Indices
// as it was (no exception leaves the API, nothing is half written), or,
// where the runtime can do without the buffer, in the outputs of a call
// without the refusal; and the next call must match the reference. Two
// paths allocate between kernel launches and may leave Y partly written
// (docs/reliability.md): their nodes say so; so does a call in pieces on a
// GPU backend. The OpenCL and CUDA runs sweep the same nodes there. The kernels' scratch blocks
// come from malloc through the runtime's own allocator;
// onnxpool_fault_injection_test refuses those.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include "onnxpool/pooling.h"
#include "platform/scratch_allocator.h"
#include "support/fault_nodes.h"
#include "support/kernel_buffer_limit.h"
#include "support/onnx_attributes.h"
#include "support/unwritten_bytes.h"

namespace {

// While `g_counting`, allocation number `g_refuse_at` (from 0) is refused,
// on whichever thread it comes.
std::atomic<bool> g_counting{false};
std::atomic<long> g_count{0};
std::atomic<long> g_refuse_at{-1};

void* allocate(std::size_t bytes, std::size_t alignment) {
  if (g_counting.load(std::memory_order_relaxed) && g_count.fetch_add(1) == g_refuse_at.load()) return nullptr;
  if (bytes == 0) bytes = 1;
  if (alignment <= alignof(std::max_align_t)) return std::malloc(bytes);
  return std::aligned_alloc(alignment, (bytes + alignment - 1) / alignment * alignment);
}

void* allocate_or_throw(std::size_t bytes, std::size_t alignment) {
  void* p = allocate(bytes, alignment);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

}  // namespace

void* operator new(std::size_t n) { return allocate_or_throw(n, 0); }
void* operator new[](std::size_t n) { return allocate_or_throw(n, 0); }
void* operator new(std::size_t n, std::align_val_t a) { return allocate_or_throw(n, static_cast<std::size_t>(a)); }
void* operator new[](std::size_t n, std::align_val_t a) { return allocate_or_throw(n, static_cast<std::size_t>(a)); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return allocate(n, 0); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return allocate(n, 0); }
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return allocate(n, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return allocate(n, static_cast<std::size_t>(a));
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

namespace onnxpool_test {
namespace {

using onnxpool::PoolOp;

struct HeapNode : FaultNode {
  // A call that launches again after writing Y with allocations in between
  // (segments; LpPool's exact redo of the planes its float32 sums flag): a
  // refusal there ends in the status with Y partly written
  // (docs/reliability.md).
  bool may_write_before_a_refusal = false;
  // Magnitudes near 2^-60 (LpPool: every plane flagged and redone).
  bool tiny_values = false;
};

const std::vector<HeapNode>& heap_nodes() {
  static const std::vector<HeapNode> nodes = [] {
    std::vector<HeapNode> all;
    for (const FaultNode& node : separable_2d_fault_nodes()) all.push_back({node});
    all.insert(all.end(), {
        {{"AveragePool float16 2D flat planes", PoolOp::kAveragePool, ElementType::kFloat16, {1, 64, 28, 28}, {3, 3},
         {1, 1}, {1, 1, 1, 1}}},
        {{"MaxPool float32 2D halving", PoolOp::kMaxPool, ElementType::kFloat32, {1, 32, 56, 56}, {2, 2}, {2, 2},
         {0, 0, 0, 0}}},
        {{"AveragePool float32 3D", PoolOp::kAveragePool, ElementType::kFloat32, {1, 4, 16, 32, 32}, {3, 3, 3},
         {2, 2, 2}, {1, 1, 1, 1, 1, 1}}},
        {{"MaxPool uint8 3D Indices", PoolOp::kMaxPool, ElementType::kUInt8, {1, 4, 16, 32, 32}, {3, 3, 3}, {2, 2, 2},
         {1, 1, 1, 1, 1, 1}, true}},
        {{"LpPool float16 1D", PoolOp::kLpPool, ElementType::kFloat16, {2, 32, 4096}, {5}, {2}, {2, 2}}},
        // 2x7x7 over 16x7x7: the 7x7 planes reduced into scratch first (covered_axes.h).
        {{"AveragePool float32 3D, trailing axes first", PoolOp::kAveragePool, ElementType::kFloat32, {1, 64, 16, 7, 7},
         {2, 7, 7}, {1, 1, 1}, {0, 0, 0, 0, 0, 0}}},
        {{"GlobalMaxPool float32, 2047 planes", PoolOp::kGlobalMaxPool, ElementType::kFloat32, {1, 2047, 7, 7}}},
        {{"GlobalAveragePool float32", PoolOp::kGlobalAveragePool, ElementType::kFloat32, {2, 64, 14, 14}}},
        {{"GlobalLpPool float16", PoolOp::kGlobalLpPool, ElementType::kFloat16, {2, 64, 14, 14}}},
        {{"AveragePool float32 1D in pieces", PoolOp::kAveragePool, ElementType::kFloat32, {1, 2, 120000}, {5}, {2},
         {2, 2}, false, 100000}},
        {{"MaxPool float32 2D Indices in pieces", PoolOp::kMaxPool, ElementType::kFloat32, {1, 2, 300, 512}, {3, 3},
         {2, 2}, {1, 1, 1, 1}, true, 100 * 512 * 4}},
        {{"GlobalAveragePool float32 in sub-planes", PoolOp::kGlobalAveragePool, ElementType::kFloat32, {1, 3, 70000},
         {}, {}, {}, false, 100000}},
        {{"GlobalMaxPool float16 in sub-planes", PoolOp::kGlobalMaxPool, ElementType::kFloat16, {1, 3, 70000}, {}, {},
         {}, false, 100000}},
        // One tap per window, 2^20 apart along x, and 2^25 columns of end
        // padding: the call runs in segments (window_segments.h).
        {{"MaxPool float32 2D in segments", PoolOp::kMaxPool, ElementType::kFloat32, {1, 1, 1, 8}, {1, 1},
         {1, 1 << 20}, {0, 0, 0, 1 << 25}, false, 0}, true},
        // Magnitudes near 2^-60: their squares underflow float32, so the range
        // check runs and every plane is redone by the exact kernel.
        {{"LpPool float32 2D, planes redone exactly", PoolOp::kLpPool, ElementType::kFloat32, {1, 16, 67, 67}, {3, 3},
         {2, 2}, {1, 1, 1, 1}, false, 0}, true, true},
    });
    return all;
  }();
  return nodes;
}

// On the CPU a call allocates only in pieces or sub-planes (a buffer limit),
// in segments and in LpPool's exact redo (docs/reliability.md, "Calls
// without heap allocation"); on a GPU backend every call does.
bool allocates(const HeapNode& node) {
  return node.buffer_limit > 0 || node.may_write_before_a_refusal ||
         onnxpool::active_backend() != onnxpool::Backend::kCpu;
}

// On a GPU backend each piece of a call in pieces is a launch of its own,
// whose device buffers and host lists come after the earlier pieces wrote Y.
bool may_write_before_a_refusal(const HeapNode& node) {
  return node.may_write_before_a_refusal ||
         (node.buffer_limit > 0 && onnxpool::active_backend() != onnxpool::Backend::kCpu);
}

struct Outcome {
  onnxpool::Status status;
  size_t written = 0;     // bytes of Y (and Indices) that changed
  long allocations = 0;   // heap allocations the call made (up to the refused one)
  std::vector<uint8_t> bytes;  // Y's, then Indices'
};

// A node, its attributes parsed and its tensors and views made, so that the
// only allocations between arming and disarming are the call's own.
class HeapNodeRun {
 public:
  HeapNodeRun(const HeapNode& node, uint64_t stream)
      : node_(node), case_(make_fault_node_case(node, stream, node.tiny_values ? -60 : 0)) {
    parsed_ = onnxpool::PoolAttributes::parse(node.op, case_.attributes(), &attributes_);
    std::vector<int64_t> y_shape;
    if (parsed_) parsed_ = onnxpool::infer_output_shape(attributes_, node.shape, &y_shape);
    Y_ = HostTensor(node.type, y_shape);
    if (node.with_indices) indices_ = HostTensor(ElementType::kInt64, y_shape);
    x_view_ = case_.X().view();
    y_view_ = Y_.view();
    indices_view_ = indices_.view();
  }

  const onnxpool::Status& parsed() const { return parsed_; }

  // The node's call with heap allocation `refuse` (from 0; -1: none) refused.
  Outcome run(long refuse) {
    const KernelBufferLimit limit(node_.buffer_limit);
    Y_.fill_bytes(kUnwrittenByte);
    if (node_.with_indices) indices_.fill_bytes(kUnwrittenByte);
    Outcome outcome;
    g_count.store(0);
    g_refuse_at.store(refuse);
    g_counting.store(true);
    outcome.status = onnxpool::pool(attributes_, x_view_, y_view_, node_.with_indices ? &indices_view_ : nullptr);
    g_counting.store(false);
    outcome.allocations = g_count.load();
    g_refuse_at.store(-1);
    outcome.written = bytes_written(Y_) + (node_.with_indices ? bytes_written(indices_) : 0);
    for (const HostTensor* t : {&Y_, &indices_}) {
      const uint8_t* b = static_cast<const uint8_t*>(t->data());
      outcome.bytes.insert(outcome.bytes.end(), b, b + t->byte_size());
    }
    return outcome;
  }

  testing::AssertionResult matches_reference() const {
    const KernelBufferLimit limit(node_.buffer_limit);
    return case_.matches_reference();
  }

 private:
  HeapNode node_;
  FaultNodeCase case_;
  onnxpool::PoolAttributes attributes_;
  onnxpool::Status parsed_;
  HostTensor Y_, indices_;
  onnxpool::TensorView x_view_, y_view_, indices_view_;
};

class HeapFaults : public testing::Test {
 protected:
  void TearDown() override {
    g_counting.store(false);
    EXPECT_TRUE(onnxpool::set_num_threads(0).is_ok());
  }
};

TEST_F(HeapFaults, CallsOnTheCpuMakeNoHeapAllocation) {
  int checked = 0;
  for (int threads : {1, 2, 4}) {
    ASSERT_TRUE(onnxpool::set_num_threads(threads).is_ok());
    for (size_t n = 0; n < heap_nodes().size(); ++n) {
      const HeapNode& node = heap_nodes()[n];
      if (allocates(node)) continue;
      SCOPED_TRACE(node.name + " at " + std::to_string(threads) + " threads");
      HeapNodeRun run(node, 8200 + n);
      ASSERT_TRUE(run.parsed().is_ok()) << run.parsed().message();
      // The first call starts the thread pool and builds the runtime's
      // tables, and the kernels' first scratch blocks come from the system.
      ASSERT_TRUE(run.matches_reference());
      const long blocks_before = onnxpool::detail::scratch_allocations_made();
      for (int call = 0; call < 3; ++call) {
        const Outcome outcome = run.run(-1);
        ASSERT_TRUE(outcome.status.is_ok()) << outcome.status.message();
        EXPECT_EQ(outcome.allocations, 0) << "call " << call;
      }
      EXPECT_EQ(onnxpool::detail::scratch_allocations_made(), blocks_before)
          << "scratch blocks taken from the system by calls that found them in the cache";
      EXPECT_TRUE(run.matches_reference());
      ++checked;
    }
  }
  if (onnxpool::active_backend() == onnxpool::Backend::kCpu) EXPECT_EQ(checked, 3 * 13);
}

TEST_F(HeapFaults, EachRefusedAllocationEndsInAStatusAndLeavesYAsItWas) {
  for (int threads : {1, 2}) {
    ASSERT_TRUE(onnxpool::set_num_threads(threads).is_ok());
    for (size_t n = 0; n < heap_nodes().size(); ++n) {
      const HeapNode& node = heap_nodes()[n];
      if (!allocates(node)) continue;  // nothing to refuse (the test above)
      SCOPED_TRACE(node.name + " at " + std::to_string(threads) + " threads");
      HeapNodeRun run(node, 8100 + n);
      ASSERT_TRUE(run.parsed().is_ok()) << run.parsed().message();
      // The first call starts the thread pool and builds the runtime's
      // tables; the sweep is about the calls after it.
      ASSERT_TRUE(run.matches_reference());
      const Outcome normal = run.run(-1);
      ASSERT_TRUE(normal.status.is_ok()) << normal.status.message();
      EXPECT_GT(normal.allocations, 0) << "a call that allocates nothing has nothing to refuse here";
      int refusals_in_a_status = 0;
      for (long k = 0; k < normal.allocations; ++k) {
        const Outcome refused = run.run(k);
        if (refused.allocations <= k) {
          // This run made fewer allocations (its threads' tasks came in
          // another order); it must then be a normal call.
          EXPECT_TRUE(refused.status.is_ok()) << "allocation " << k << ": " << refused.status.message();
          continue;
        }
        if (refused.status.is_ok()) {
          // The runtime does without that buffer (LpPool then redoes the
          // planes it could not sort): the same outputs as without the refusal.
          EXPECT_TRUE(refused.bytes == normal.bytes) << "allocation " << k << " refused, the call's outputs changed";
          continue;
        }
        ++refusals_in_a_status;
        EXPECT_EQ(refused.status.code(), onnxpool::StatusCode::kInternal)
            << "allocation " << k << ": " << refused.status.message();
        EXPECT_NE(refused.status.message().find("out of memory"), std::string::npos)
            << "allocation " << k << ": " << refused.status.message();
        if (!may_write_before_a_refusal(node)) {
          EXPECT_EQ(refused.written, 0u) << "bytes of Y and Indices written before allocation " << k << " of "
                                         << normal.allocations << " was refused";
        }
      }
      EXPECT_GT(refusals_in_a_status, 0) << "no refusal reached the API's status";
      EXPECT_TRUE(run.matches_reference()) << "the call after the refusals";
    }
  }
}

}  // namespace
}  // namespace onnxpool_test
