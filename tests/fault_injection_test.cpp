// Faults the system can hand a pooling call, injected through the runtime's
// test hooks (white box):
// - a host buffer of the runtime's own that the system refuses (std::bad_alloc)
//   ends the call in kInternal naming the operator, before any kernel ran,
//   so Y keeps every byte it had; no exception leaves the API;
// - a scratch request that malloc refuses ends the call in a status naming
//   the failed allocation, never a crash; at one thread, where the first
//   task's request is the first one refused, Y keeps every byte it had; and
//   the next call runs and matches the reference again;
// - worker threads that the system refuses (a pids cgroup, RLIMIT_NPROC),
//   the first or a later one, leave the calls on the calling thread with
//   the reference's results, until set_num_threads asks again.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "call_guard.h"
#include "onnxpool/pooling.h"
#include "scratch_allocator.h"
#include "support/float_type_info.h"
#include "support/maxpool_check.h"
#include "support/onnx_attributes.h"
#include "support/pool_check.h"
#include "support/test_settings.h"
#include "support/unwritten_bytes.h"
#include "support/value_fills.h"
#include "thread_pool.h"

namespace onnxpool_test {
namespace {

using onnxpool::PoolOp;
using onnxpool::detail::pool_threads_running;
using onnxpool::detail::refuse_host_allocations_for_testing;
using onnxpool::detail::refuse_scratch_requests_for_testing;
using onnxpool::detail::refuse_thread_starts_for_testing;
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
    refuse_scratch_requests_for_testing(0);
    refuse_thread_starts_for_testing(0, 0);
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

TEST_F(FaultInjection, RefusedScratchEndsInAStatusAndLeavesYAsItWas) {
  ASSERT_TRUE(onnxpool::set_num_threads(1).is_ok());
  int refused_calls = 0;
  for (PoolOp op : kEveryOperator) {
    SCOPED_TRACE(onnxpool::op_name(op));
    const uint64_t stream = kStreamBase + static_cast<uint64_t>(op);
    const PoolCase c = fault_case(op, stream);
    refuse_scratch_requests_for_testing(1);
    const Call refused = call_into_unwritten(c);
    if (scratch_refusals_left() == 0) {
      // The kernel asked for scratch, was refused, and said so.
      ++refused_calls;
      EXPECT_FALSE(refused.status.is_ok());
      EXPECT_EQ(refused.status.code(), onnxpool::StatusCode::kInternal);
      EXPECT_NE(refused.status.message().find("Out of memory"), std::string::npos) << refused.status.message();
      EXPECT_EQ(bytes_written(refused.Y), 0u) << "of " << refused.Y.byte_size() << " bytes of Y";
    } else {
      // A kernel that needs no heap scratch (its buffers fit on the stack):
      // the refusal was never asked for, and the call is right.
      EXPECT_TRUE(refused.status.is_ok()) << refused.status.message();
    }
    refuse_scratch_requests_for_testing(0);
    EXPECT_TRUE(matches_reference(op, stream)) << "the call after the refusal";
  }
  // The separable kernels keep their row buffers on the heap at this width.
  EXPECT_GE(refused_calls, 3) << "too few operators asked for scratch: the hook proved nothing";
}

TEST_F(FaultInjection, RefusedScratchAtTwoThreadsEndsInAStatus) {
  ASSERT_TRUE(onnxpool::set_num_threads(2).is_ok());
  for (PoolOp op : {PoolOp::kMaxPool, PoolOp::kAveragePool, PoolOp::kLpPool}) {
    SCOPED_TRACE(onnxpool::op_name(op));
    const uint64_t stream = kStreamBase + 10 + static_cast<uint64_t>(op);
    const PoolCase c = fault_case(op, stream);
    for (int refusals : {1, 3}) {
      refuse_scratch_requests_for_testing(refusals);
      const Call refused = call_into_unwritten(c);
      EXPECT_LT(scratch_refusals_left(), refusals) << "no scratch was asked for";
      EXPECT_FALSE(refused.status.is_ok()) << refusals << " refusals";
      EXPECT_NE(refused.status.message().find("Out of memory"), std::string::npos) << refused.status.message();
      refuse_scratch_requests_for_testing(0);
    }
    EXPECT_TRUE(matches_reference(op, stream)) << "the call after the refusals";
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
