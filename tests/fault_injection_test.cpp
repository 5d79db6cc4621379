// Faults the system can hand a pooling call, injected through the runtime's
// test hooks (white box):
// - a host buffer of the runtime's own that the system refuses (std::bad_alloc)
//   ends the call in kInternal naming the operator, before any kernel ran,
//   so Y keeps every byte it had; no exception leaves the API;
// - a scratch block that malloc refuses, whichever of a call's it is and at
//   any thread count, ends the call in a status naming the failed
//   allocation, never a crash, with every byte of Y and Indices as it was;
//   and the next call runs and matches the reference again;
// - worker threads that the system refuses (a pids cgroup, RLIMIT_NPROC),
//   the first or a later one, leave the calls on the calling thread with
//   the reference's results, until set_num_threads asks again.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "api/call_guard.h"
#include "execute/large_planes.h"
#include "onnxpool/pooling.h"
#include "platform/scratch_allocator.h"
#include "support/fault_nodes.h"
#include "support/float_type_info.h"
#include "support/kernel_buffer_limit.h"
#include "support/maxpool_check.h"
#include "support/onnx_attributes.h"
#include "support/pool_check.h"
#include "support/test_settings.h"
#include "support/unwritten_bytes.h"
#include "support/value_fills.h"
#include "platform/thread_pool.h"

namespace onnxpool_test {
namespace {

using onnxpool::PoolOp;
using onnxpool::detail::calls_run_in_pieces;
using onnxpool::detail::pool_threads_running;
using onnxpool::detail::refuse_host_allocations_for_testing;
using onnxpool::detail::refuse_scratch_allocations_for_testing;
using onnxpool::detail::release_cached_scratch_for_testing;
using onnxpool::detail::scratch_allocations_made;
using onnxpool::detail::refuse_thread_starts_for_testing;
using onnxpool::detail::run_tasks_last_first_for_testing;
using onnxpool::detail::scratch_refusals_left;
using onnxpool::detail::stop_pool_for_testing;

constexpr uint64_t kStreamBase = 7100;

const std::vector<PoolOp> kEveryOperator{PoolOp::kMaxPool,       PoolOp::kAveragePool,       PoolOp::kLpPool,
                                         PoolOp::kGlobalMaxPool, PoolOp::kGlobalAveragePool, PoolOp::kGlobalLpPool};

// Planes wide enough that the windowed kernels keep row buffers on the heap,
// and enough outputs (or inputs, for the global pools) for several parallel
// tasks, so that a pool of threads is asked for.
struct FaultCase {
  PoolSpec spec;
  HostTensor X;
  int scale_exponent = 0;
};

FaultCase fault_input(PoolOp op, uint64_t stream) {
  Random random(derive_seed(test_seed(), stream, 0));
  FaultCase f{PoolSpec{}, HostTensor(ElementType::kFloat32, {is_global_pool(op) ? 2 : 1, 16, 227, 227}), 0};
  if (!is_global_pool(op)) {
    f.spec.kernel_shape = {3, 3};
    f.spec.strides = {2, 2};
    f.spec.pads = {1, 1, 1, 1};
  }
  f.spec.p = op == PoolOp::kLpPool || op == PoolOp::kGlobalLpPool ? 2 : 0;
  if (op == PoolOp::kMaxPool || op == PoolOp::kGlobalMaxPool) {
    fill_with_ties(random, &f.X, 0.01);
  } else {
    const bool average = op == PoolOp::kAveragePool || op == PoolOp::kGlobalAveragePool;
    f.scale_exponent = fill_for_sum_pool(random, &f.X, average ? SumPool::kAverage : SumPool::kLp);
  }
  return f;
}

// The case as the operator's own entry point runs it (MaxPool without Indices).
PoolCase fault_case(PoolOp op, uint64_t stream) {
  FaultCase f = fault_input(op, stream);
  PoolCase c = make_pool_case(op, f.spec, std::move(f.X));
  c.scale_exponent = f.scale_exponent;
  return c;
}

// The same case through the library against the reference: MaxPool's
// reference is its own (with Indices), the others' pool_matches_reference.
testing::AssertionResult matches_reference(PoolOp op, uint64_t stream) {
  if (op != PoolOp::kMaxPool) return pool_matches_reference(fault_case(op, stream));
  FaultCase f = fault_input(op, stream);
  return library_matches_reference(make_max_pool_case(f.spec, std::move(f.X), /*with_indices=*/true));
}

struct Call {
  onnxpool::Status status;
  HostTensor Y;
};

// The operator on `c` into a Y filled with kUnwrittenByte.
Call call_into_unwritten(const PoolCase& c) {
  Call call;
  call.status = library_pool(c, &call.Y);
  return call;
}

class FaultInjection : public testing::Test {
 protected:
  void TearDown() override {
    refuse_host_allocations_for_testing(0);
    refuse_scratch_allocations_for_testing(0, 0);
    refuse_thread_starts_for_testing(0, 0);
    run_tasks_last_first_for_testing(false);
    EXPECT_TRUE(onnxpool::set_num_threads(0).is_ok());
  }
};

TEST_F(FaultInjection, RefusedHostBufferEndsInAStatusAndLeavesYAsItWas) {
  for (int threads : {1, 2}) {
    ASSERT_TRUE(onnxpool::set_num_threads(threads).is_ok());
    for (PoolOp op : kEveryOperator) {
      SCOPED_TRACE(std::string(onnxpool::op_name(op)) + " at " + std::to_string(threads) + " threads");
      const uint64_t stream = kStreamBase + 40 + static_cast<uint64_t>(op);
      const PoolCase c = fault_case(op, stream);
      refuse_host_allocations_for_testing(1);
      Call refused;
      EXPECT_NO_THROW(refused = call_into_unwritten(c));
      EXPECT_EQ(refused.status.code(), onnxpool::StatusCode::kInternal) << refused.status.message();
      EXPECT_NE(refused.status.message().find(std::string(onnxpool::op_name(op)) + ": out of memory"),
                std::string::npos)
          << refused.status.message();
      EXPECT_EQ(bytes_written(refused.Y), 0u) << "of " << refused.Y.byte_size() << " bytes of Y";
      refuse_host_allocations_for_testing(0);
      EXPECT_TRUE(matches_reference(op, stream)) << "the call after the refusal";
    }
  }
}

// A node whose kernel takes heap scratch, one per kernel family that does:
// the separable 1D, 2D and 3D kernels (their row and plane buffers), MaxPool
// with Indices, the flat-plane kernels, 16-bit and 8-bit types; and calls
// that run in pieces, whose later launches find the blocks the first took.
// The first nodes' tasks are equal at 1, 2 and 4 threads (whole planes, or
// rows in equal runs). The "uneven" ones split a prime count of output rows
// or planes (257, 97, 127), so whatever grain the runtime picks between 2 and
// the count, each plane or the call ends with a smaller task; the thread
// pool hands their tasks out last first, so the first request of the call
// comes from a smaller task. Before the schedules bounded a task's
// buffers to a full task's, that request provisioned blocks too small for
// the full tasks, and a refusal came after the small task wrote its rows
// (seen in normal order too, where a worker started with the smaller task:
// a 3-task flat-plane call at 4 threads, a 2D call in pieces under ASan).
struct ScratchNode : FaultNode {
  // Tasks handed out last first (run_tasks_last_first_for_testing).
  bool last_task_first = false;
};

const std::vector<ScratchNode>& scratch_nodes() {
  static const std::vector<ScratchNode> nodes = [] {
    std::vector<ScratchNode> all;
    for (const FaultNode& node : separable_2d_fault_nodes()) all.push_back({node});
    all.insert(all.end(), {
        {{"MaxPool float16 2D flat planes", PoolOp::kMaxPool, ElementType::kFloat16, {1, 512, 28, 28}, {3, 3}, {1, 1},
         {1, 1, 1, 1}}},
        {{"AveragePool float32 2D flat planes", PoolOp::kAveragePool, ElementType::kFloat32, {1, 512, 28, 28}, {3, 3},
         {1, 1}, {1, 1, 1, 1}}},
        {{"AveragePool float32 3D", PoolOp::kAveragePool, ElementType::kFloat32, {1, 16, 32, 32, 32}, {3, 3, 3},
         {2, 2, 2}, {1, 1, 1, 1, 1, 1}}},
        {{"MaxPool uint8 3D Indices", PoolOp::kMaxPool, ElementType::kUInt8, {1, 16, 32, 32, 32}, {3, 3, 3},
         {2, 2, 2}, {1, 1, 1, 1, 1, 1}, true}},
        {{"AveragePool float32 3D, trailing axes first", PoolOp::kAveragePool, ElementType::kFloat32,
         {1, 64, 16, 7, 7}, {2, 7, 7}, {1, 1, 1}, {0, 0, 0, 0, 0, 0}}},
        {{"MaxPool int8 1D", PoolOp::kMaxPool, ElementType::kInt8, {2, 32, 4096}, {5}, {2}, {2, 2}}},
        {{"LpPool float16 1D", PoolOp::kLpPool, ElementType::kFloat16, {2, 32, 4096}, {5}, {2}, {2, 2}}},
        {{"AveragePool float32 1D in pieces", PoolOp::kAveragePool, ElementType::kFloat32, {1, 2, 120000}, {5}, {2},
         {2, 2}, false, 100000}},
        {{"MaxPool float32 2D uneven rows", PoolOp::kMaxPool, ElementType::kFloat32, {1, 2, 513, 513}, {3, 3}, {2, 2},
         {1, 1, 1, 1}, false, 0}, true},
        {{"MaxPool float16 2D flat planes, uneven planes", PoolOp::kMaxPool, ElementType::kFloat16, {1, 97, 28, 28},
         {3, 3}, {1, 1}, {1, 1, 1, 1}, false, 0}, true},
        {{"AveragePool float32 3D uneven rows", PoolOp::kAveragePool, ElementType::kFloat32, {1, 1, 2, 513, 512},
         {2, 3, 3}, {2, 2, 2}, {0, 1, 1, 0, 1, 1}, false, 0}, true},
        {{"MaxPool int8 1D uneven planes", PoolOp::kMaxPool, ElementType::kInt8, {1, 97, 4096}, {5}, {2}, {2, 2},
         false, 0}, true},
        // Buffers of 254 input rows: a first piece of 127 output rows (prime;
        // 1024 wide, so several tasks at the default grain), then one of 23.
        {{"MaxPool float32 2D Indices in pieces, uneven rows", PoolOp::kMaxPool, ElementType::kFloat32,
         {1, 1, 300, 2048}, {3, 3}, {2, 2}, {1, 1, 1, 1}, true, 254 * 2048 * 4}, true},
    });
    return all;
  }();
  return nodes;
}

struct ScratchCall {
  onnxpool::Status status;
  size_t written = 0;  // bytes of Y (and Indices) that changed
};

class ScratchNodeRun {
 public:
  ScratchNodeRun(const ScratchNode& node, uint64_t stream) : node_(node), case_(make_fault_node_case(node, stream)) {}

  // The node into outputs filled with kUnwrittenByte.
  ScratchCall run() const {
    const KernelBufferLimit limit(node_.buffer_limit);
    run_tasks_last_first_for_testing(node_.last_task_first);
    ScratchCall call;
    if (node_.op == PoolOp::kMaxPool) {
      MaxPoolResult out;
      call.status = library_max_pool(case_.max_case, &out);
      call.written = bytes_written(out.Y) + bytes_written(out.Indices);
    } else {
      HostTensor Y;
      call.status = library_pool(case_.pool_case, &Y);
      call.written = bytes_written(Y);
    }
    return call;
  }

  testing::AssertionResult matches_reference() const {
    const KernelBufferLimit limit(node_.buffer_limit);
    return case_.matches_reference();
  }

 private:
  ScratchNode node_;
  FaultNodeCase case_;
};

// Blocks taken from the system by one run of `node` with an empty cache.
long system_allocations_of(const ScratchNodeRun& node) {
  release_cached_scratch_for_testing();
  const long before = scratch_allocations_made();
  const ScratchCall call = node.run();
  EXPECT_TRUE(call.status.is_ok()) << call.status.message();
  return scratch_allocations_made() - before;
}

// Each system allocation a node's call makes, refused in turn, at 1, 2 and
// 4 threads: the call ends in Halide's out-of-memory status with Y and
// Indices untouched, whichever allocation it was and whatever the other
// threads' tasks had done by then; and the next call matches the reference.
TEST_F(FaultInjection, EachRefusedScratchAllocationLeavesYAsItWas) {
  int nodes_with_scratch = 0;
  for (int threads : {1, 2, 4}) {
    ASSERT_TRUE(onnxpool::set_num_threads(threads).is_ok());
    for (size_t n = 0; n < scratch_nodes().size(); ++n) {
      const ScratchNode& node = scratch_nodes()[n];
      SCOPED_TRACE(node.name + " at " + std::to_string(threads) + " threads");
      const ScratchNodeRun run(node, kStreamBase + 50 + n);
      const int64_t pieces_before = calls_run_in_pieces();
      const long allocations = system_allocations_of(run);
      EXPECT_EQ(calls_run_in_pieces() > pieces_before, node.buffer_limit > 0) << "pieces, or none, as the node says";
      if (threads == 1 && allocations > 0) ++nodes_with_scratch;
      if (threads > 1) {
        // The other threads' blocks are provisioned with the first request's
        // (one per thread, or per task where a launch has fewer tasks).
        EXPECT_GE(allocations, 2) << "the call's scratch was not provisioned for its threads";
      }
      for (long k = 0; k < allocations; ++k) {
        release_cached_scratch_for_testing();
        refuse_scratch_allocations_for_testing(static_cast<int>(k), 1);
        const ScratchCall refused = run.run();
        if (scratch_refusals_left() == 0) {
          EXPECT_EQ(refused.status.code(), onnxpool::StatusCode::kInternal) << "allocation " << k;
          EXPECT_NE(refused.status.message().find("Out of memory"), std::string::npos) << refused.status.message();
          EXPECT_EQ(refused.written, 0u) << "bytes of Y and Indices written before allocation " << k << " was refused";
        } else {
          // This run made fewer allocations (its threads' tasks came in
          // another order); it must then be a normal call.
          EXPECT_GT(k, 0) << "the first allocation is always made";
          EXPECT_TRUE(refused.status.is_ok()) << refused.status.message();
        }
        refuse_scratch_allocations_for_testing(0, 0);
      }
      EXPECT_TRUE(run.matches_reference()) << "the call after the refusals";
    }
  }
  EXPECT_EQ(nodes_with_scratch, static_cast<int>(scratch_nodes().size()))
      << "a node took no heap scratch: it no longer tests what it was chosen for";
}

// LpPool's float32 sums run first and write Y; planes whose outputs they may
// have got wrong are then checked and redone by other kernels, whose scratch
// is taken after Y was written. A refusal there still ends in a status
// (Y then holds the first kernel's outputs, as include/onnxpool/pooling.h
// says of a call that fails inside a kernel), and the next call is right.
TEST_F(FaultInjection, RefusedScratchInLpPoolsExactRedoEndsInAStatus) {
  ASSERT_TRUE(onnxpool::set_num_threads(2).is_ok());
  Random random(derive_seed(test_seed(), kStreamBase + 70, 0));
  HostTensor X(ElementType::kFloat32, {1, 16, 227, 227});
  // Magnitudes near 2^-60: their squares underflow float32, so every plane
  // is flagged and redone.
  for (int64_t i = 0; i < X.size(); ++i) X.set(i, std::ldexp(static_cast<double>(random.between(32, 96)), -66));
  PoolSpec spec;
  spec.kernel_shape = {3, 3};
  spec.strides = {2, 2};
  spec.pads = {1, 1, 1, 1};
  spec.p = 2;
  const PoolCase c = make_pool_case(PoolOp::kLpPool, spec, std::move(X));
  release_cached_scratch_for_testing();
  const long before = scratch_allocations_made();
  HostTensor Y;
  ASSERT_TRUE(library_pool(c, &Y).is_ok());
  const long allocations = scratch_allocations_made() - before;
  EXPECT_GT(allocations, 2) << "the redo took no scratch of its own";
  int refused = 0;
  for (long k = 0; k < allocations; ++k) {
    release_cached_scratch_for_testing();
    refuse_scratch_allocations_for_testing(static_cast<int>(k), 1);
    const Call call = call_into_unwritten(c);
    if (scratch_refusals_left() == 0) {
      ++refused;
      EXPECT_EQ(call.status.code(), onnxpool::StatusCode::kInternal) << "allocation " << k;
      EXPECT_NE(call.status.message().find("Out of memory"), std::string::npos) << call.status.message();
    } else {
      EXPECT_TRUE(call.status.is_ok()) << call.status.message();
    }
    refuse_scratch_allocations_for_testing(0, 0);
  }
  EXPECT_GT(refused, 0);
  EXPECT_TRUE(pool_matches_reference(c)) << "the call after the refusals";
}

// In steady state a call's scratch comes from the blocks earlier calls left.
TEST_F(FaultInjection, RepeatedCallsTakeNoNewScratch) {
  for (int threads : {1, 2}) {
    ASSERT_TRUE(onnxpool::set_num_threads(threads).is_ok());
    const ScratchNodeRun run(scratch_nodes()[0], kStreamBase + 60);
    ASSERT_TRUE(run.run().status.is_ok());
    const long before = scratch_allocations_made();
    for (int i = 0; i < 5; ++i) ASSERT_TRUE(run.run().status.is_ok());
    EXPECT_EQ(scratch_allocations_made(), before) << "at " << threads << " threads";
  }
}

TEST_F(FaultInjection, RefusedWorkerThreadsLeaveTheCallsOnTheCaller) {
  // (threads wanted, worker starts that succeed before the refusal)
  const std::pair<int, int> faults[] = {{2, 0}, {4, 0}, {4, 1}, {4, 2}};
  for (const auto& [threads, started] : faults) {
    SCOPED_TRACE("threads " + std::to_string(threads) + ", refused after " + std::to_string(started));
    ASSERT_TRUE(onnxpool::set_num_threads(threads).is_ok());
    stop_pool_for_testing();  // so the calls below start one
    refuse_thread_starts_for_testing(started, 1);
    for (PoolOp op : kEveryOperator) {
      EXPECT_TRUE(matches_reference(op, kStreamBase + 20 + static_cast<uint64_t>(op))) << onnxpool::op_name(op);
    }
    EXPECT_EQ(pool_threads_running(), 1) << "a pool ran although a worker's start was refused";
    // Asking again starts the pool: the refusal was one start.
    ASSERT_TRUE(onnxpool::set_num_threads(threads).is_ok());
    EXPECT_EQ(pool_threads_running(), 1) << "set_num_threads started a pool itself";
    EXPECT_TRUE(matches_reference(PoolOp::kMaxPool, kStreamBase + 30));
    EXPECT_EQ(pool_threads_running(), threads);
  }
}

}  // namespace
}  // namespace onnxpool_test
