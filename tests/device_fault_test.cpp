// A GPU that refuses memory, as a full device does, injected through the
// runtime's lookup of the drivers' allocation calls
// (runtime/execute/device_allocations.h) on the backend ONNXPOOL_TEST_BACKEND names:
// opencl (PoCL in CI) or cuda (tools/gpu_check.sh). For every operator and
// for each device allocation a call makes, refusing that one allocation
// ends the call in kInternal naming the operator and the device, leaves
// every byte of Y (and Indices) as it was, and the next call matches the
// reference. Registered only with a GPU backend: on the CPU nothing here
// asks a driver for memory, and the test says so rather than pass.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "execute/device_allocations.h"
#include "onnxpool/pooling.h"
#include "support/maxpool_check.h"
#include "support/onnx_attributes.h"
#include "support/pool_cases.h"
#include "support/pool_check.h"
#include "support/random.h"
#include "support/test_settings.h"
#include "support/unwritten_bytes.h"
#include "support/value_fills.h"

namespace onnxpool_test {
namespace {

using onnxpool::PoolOp;
using onnxpool::detail::device_allocations_asked;
using onnxpool::detail::device_refusals_left;
using onnxpool::detail::refuse_device_allocations_for_testing;

constexpr uint64_t kStream = 7300;

// Outputs of a call, pre-filled with kUnwrittenByte.
struct Outcome {
  onnxpool::Status status;
  std::vector<const HostTensor*> outputs;
  MaxPoolResult max_pool;
  HostTensor Y;
};

// One ordinary node per operator: 2D float32, two planes of 19x23, MaxPool
// with Indices (a second output the device must hold).
class DeviceCall {
 public:
  explicit DeviceCall(PoolOp op) : op_(op) {
    Random random(derive_seed(test_seed(), kStream, static_cast<uint64_t>(op)));
    HostTensor X(ElementType::kFloat32, {1, 2, 19, 23});
    const bool global = is_global_pool(op);
    const bool lp = op == PoolOp::kLpPool || op == PoolOp::kGlobalLpPool;
    PoolSpec spec = global ? p_only(lp ? 2 : 0) : lp ? lp_spec({3, 3}, {2, 2}, {1, 1, 1, 1}, 2)
                                                     : window_spec({3, 3}, {2, 2}, {1, 1, 1, 1});
    if (op == PoolOp::kMaxPool || op == PoolOp::kGlobalMaxPool) {
      fill_with_ties(random, &X, 0.01);
      if (op == PoolOp::kMaxPool) {
        max_case_ = make_max_pool_case(spec, std::move(X), /*with_indices=*/true);
      } else {
        pool_case_ = make_pool_case(op, spec, std::move(X));
      }
    } else {
      pool_case_ = make_filled_sum_pool_case(random, op, spec, std::move(X));
    }
  }

  Outcome run() const {
    Outcome o;
    if (op_ == PoolOp::kMaxPool) {
      o.status = library_max_pool(max_case_, &o.max_pool);
      o.outputs = {&o.max_pool.Y, &o.max_pool.Indices};
    } else {
      o.status = library_pool(pool_case_, &o.Y);
      o.outputs = {&o.Y};
    }
    return o;
  }

  testing::AssertionResult matches_reference() const {
    return op_ == PoolOp::kMaxPool ? library_matches_reference(max_case_) : pool_matches_reference(pool_case_);
  }

 private:
  PoolOp op_;
  MaxPoolCase max_case_;
  PoolCase pool_case_;
};

TEST(DeviceFaultInjection, EachRefusedDeviceAllocationEndsInAStatusAndLeavesYAsItWas) {
  const onnxpool::Backend backend = onnxpool::active_backend();
  ASSERT_NE(backend, onnxpool::Backend::kCpu)
      << "run with ONNXPOOL_TEST_BACKEND=opencl or cuda: the CPU backend asks no driver for memory";
  const std::string device = std::string("out of memory on the ") + onnxpool::backend_name(backend) + " device";
  for (PoolOp op : {PoolOp::kMaxPool, PoolOp::kAveragePool, PoolOp::kLpPool, PoolOp::kGlobalMaxPool,
                    PoolOp::kGlobalAveragePool, PoolOp::kGlobalLpPool}) {
    SCOPED_TRACE(onnxpool::op_name(op));
    const DeviceCall call(op);
    // How many allocations one call makes (X's copy, Y's, Indices', scratch).
    const int64_t before = device_allocations_asked();
    ASSERT_TRUE(call.matches_reference());
    const int64_t per_call = device_allocations_asked() - before;
    ASSERT_GE(per_call, 2) << "a call on the device allocated less than X and Y: the hook sees nothing";
    for (int refused = 0; refused < per_call; ++refused) {
      SCOPED_TRACE("allocation " + std::to_string(refused + 1) + " of " + std::to_string(per_call) + " refused");
      refuse_device_allocations_for_testing(1, refused);
      const Outcome o = call.run();
      EXPECT_EQ(device_refusals_left(), 0) << "the call never reached the refused allocation";
      refuse_device_allocations_for_testing(0);
      EXPECT_EQ(o.status.code(), onnxpool::StatusCode::kInternal) << o.status.message();
      EXPECT_NE(o.status.message().find(std::string(onnxpool::op_name(op)) + ": " + device), std::string::npos)
          << o.status.message();
      for (const HostTensor* out : o.outputs) {
        EXPECT_EQ(bytes_written(*out), 0u) << "of " << out->byte_size() << " bytes of an output";
      }
      EXPECT_TRUE(call.matches_reference()) << "the call after the refusal";
    }
  }
}

}  // namespace
}  // namespace onnxpool_test
