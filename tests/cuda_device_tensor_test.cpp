// onnxpool on an NVIDIA GPU through CUDA device tensors: inputs and outputs
// allocated with cuMemAlloc in the device's primary context, TensorView
// device kCuda, every operator, spatial ranks 1-3 and every element type,
// hundreds of random nodes, each compared with the same call on the CPU
// backend (support/cuda_pool_check.h says how closely). Also host tensors on
// the CUDA backend, that no output is written outside its extent, and that
// windows far into the padding take segments on device tensors too.
//
// Needs an NVIDIA driver and GPU, and fails (never skips) without one, so a
// GPU run cannot pass by accident; built and registered (ctest label cuda)
// only with -DONNXPOOL_TEST_CUDA=ON. The CUDA driver is loaded at run time
// (support/cuda_driver.h). ONNXPOOL_TEST_SEED and ONNXPOOL_TEST_SCALE work as
// in the other tests; HL_GPU_DEVICE picks the GPU.
#include <gtest/gtest.h>

#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include "onnxpool/pooling.h"
#include "reference/host_tensor.h"
#include "support/op_type_rank.h"
#include "support/cuda_driver.h"
#include "support/cuda_pool_check.h"
#include "support/float_type_info.h"
#include "support/forced_segments.h"
#include "support/maxpool_cases.h"
#include "support/maxpool_check.h"
#include "support/onnx_attributes.h"
#include "support/pool_cases.h"
#include "support/pool_check.h"
#include "support/random.h"
#include "support/test_settings.h"
#include "support/value_fills.h"

namespace onnxpool_test {
namespace {

using onnxpool::Backend;
using onnxpool::PoolOp;
using onnxpool::detail::calls_run_in_segments;
using onnxpool_cuda::CudaDriver;

// 18 (type, rank) x 8 = 144 MaxPool nodes, 60 (operator, type, rank) x 4 =
// 240 of the others, at scale 1.
constexpr int kMaxPoolCasesPerTypeAndRank = 8;
constexpr int kCasesPerOpTypeAndRank = 4;
constexpr int kHostTensorCasesPerOp = 6;
constexpr int kMisalignedCasesPerOp = 4;
constexpr uint64_t kMaxPoolStreamBase = 20000;
constexpr uint64_t kPoolStreamBase = 21000;
constexpr uint64_t kHostTensorStreamBase = 23000;
constexpr uint64_t kMisalignedStreamBase = 24000;
constexpr uint64_t kGuardStream = 25000;
constexpr uint64_t kSegmentStream = 26000;

// Every test needs the driver and a device: without them it fails, saying so.
class CudaTest : public testing::Test {
 protected:
  void SetUp() override {
    const CudaDriver& cuda = CudaDriver::get();
    ASSERT_TRUE(cuda.ok()) << "this test needs an NVIDIA GPU and driver, and fails without one: "
                           << cuda.failure();
    ASSERT_TRUE(onnxpool::backend_compiled(Backend::kCuda)) << "this build of onnxpool has no CUDA kernels";
    ASSERT_TRUE(onnxpool::set_backend(Backend::kCpu).is_ok());
  }
  void TearDown() override { onnxpool::set_backend(Backend::kCpu); }
};

TEST_F(CudaTest, DriverAndDeviceArePresent) {
  const std::string& device = CudaDriver::get().device_description();
  std::printf("CUDA device: %s\n", device.c_str());
  RecordProperty("cuda_device", device);
}

std::vector<OpTypeRank> max_pool_combinations() {
  std::vector<OpTypeRank> all;
  for (ElementType type : max_pool_types()) {
    for (int rank = 1; rank <= 3; ++rank) all.push_back({PoolOp::kMaxPool, type, rank});
  }
  return all;
}

std::vector<OpTypeRank> other_combinations() {
  std::vector<OpTypeRank> all;
  for (PoolOp op : sum_and_global_ops()) {
    for (ElementType type : float_types()) {
      for (int rank = 1; rank <= 3; ++rank) all.push_back({op, type, rank});
    }
  }
  return all;
}

class CudaDeviceTensors : public CudaTest, public testing::WithParamInterface<OpTypeRank> {};

// Random nodes of one operator, type and rank on device tensors (MaxPool
// with and without Indices: each case draws which).
TEST_P(CudaDeviceTensors, MatchTheCpuBackend) {
  const OpTypeRank& p = GetParam();
  const uint64_t type_and_rank = static_cast<uint64_t>(p.type) * 16 + static_cast<uint64_t>(p.rank);
  BatchOutcome outcome;
  int count = 0;
  if (p.op == PoolOp::kMaxPool) {
    count = scaled_case_count(kMaxPoolCasesPerTypeAndRank);
    outcome = run_cuda_max_pool_cases(kMaxPoolStreamBase + type_and_rank, count, {p.type}, {p.rank},
                                      CudaPlacement::kDeviceTensors);
  } else {
    count = scaled_case_count(kCasesPerOpTypeAndRank);
    outcome = run_cuda_pool_cases(kPoolStreamBase + static_cast<uint64_t>(p.op) * 256 + type_and_rank, count, p.op,
                                  {p.type}, {p.rank}, CudaPlacement::kDeviceTensors);
  }
  EXPECT_EQ(outcome.cases_run, count);
  EXPECT_TRUE(outcome.failures.empty()) << outcome.report();
}

INSTANTIATE_TEST_SUITE_P(MaxPool, CudaDeviceTensors, testing::ValuesIn(max_pool_combinations()), param_name);
INSTANTIATE_TEST_SUITE_P(SumAndGlobalPools, CudaDeviceTensors, testing::ValuesIn(other_combinations()), param_name);

// Host tensors with set_backend(kCuda): each call uploads X and copies Y
// back. (The kernel-result tests run again this way as the cuda_* ctests;
// this is the quick check next to the device-tensor one.)
TEST_F(CudaTest, HostTensorsOnTheCudaBackendMatchTheCpuBackend) {
  const int count = scaled_case_count(kHostTensorCasesPerOp);
  const BatchOutcome max_pool = run_cuda_max_pool_cases(kHostTensorStreamBase, count, max_pool_types(), {1, 2, 3},
                                                        CudaPlacement::kHostTensorsOnCudaBackend);
  EXPECT_TRUE(max_pool.failures.empty()) << max_pool.report();
  for (PoolOp op : sum_and_global_ops()) {
    const BatchOutcome outcome =
        run_cuda_pool_cases(kHostTensorStreamBase + 1 + static_cast<uint64_t>(op), count, op, float_types(),
                            {1, 2, 3}, CudaPlacement::kHostTensorsOnCudaBackend);
    EXPECT_TRUE(outcome.failures.empty()) << onnxpool::op_name(op) << ": " << outcome.report();
  }
  EXPECT_EQ(onnxpool::active_backend(), Backend::kCpu);
}

// Outputs of 1 to 257 elements (so every vector and block width leaves a
// tail) in device memory with guard bytes on both sides: nothing past
// either end may change. (Every random case above checks its guards too.)
TEST_F(CudaTest, OutputsAreNotWrittenOutsideTheirExtent) {
  Random random(derive_seed(test_seed(), kGuardStream, 0));
  for (int64_t outputs : {1, 2, 3, 7, 33, 257}) {
    for (ElementType type : max_pool_types()) {
      PoolSpec window;
      window.kernel_shape = {2};
      window.pads = {1, 0};  // so that a window hangs into the padding
      HostTensor X(type, {1, 1, outputs});
      fill_with_ties(random, &X, 0.0);
      for (bool with_indices : {false, true}) {
        EXPECT_TRUE(cuda_matches_cpu(make_max_pool_case(window, X, with_indices), CudaPlacement::kDeviceTensors))
            << "MaxPool " << type_label(type) << " Y of " << outputs << " elements"
            << (with_indices ? " with Indices" : "");
      }
    }
    for (PoolOp op : sum_and_global_ops()) {
      for (ElementType type : float_types()) {
        PoolSpec window;
        if (!is_global_pool(op)) {
          window.kernel_shape = {2};
          window.pads = {1, 0};
        }
        // Global pools: one output per channel.
        HostTensor X(type, is_global_pool(op) ? std::vector<int64_t>{1, outputs, 5} : std::vector<int64_t>{1, 1, outputs});
        fill_with_ties(random, &X, 0.0);
        EXPECT_TRUE(cuda_matches_cpu(make_pool_case(op, window, X), CudaPlacement::kDeviceTensors))
            << onnxpool::op_name(op) << " " << type_label(type) << " Y of " << outputs << " elements";
      }
    }
  }
}

// Windows reaching far into the padding over a small X take segments
// (runtime/execute/window_segments.h); device tensors take them too, run on host
// copies of X and Y, and match the CPU backend, which segments the same
// call. Segments are forced for every call that has a plan, so the nodes
// stay small enough for the reference; each case must add two segmented
// calls: the device one and the CPU one it is compared with.

TEST_F(CudaTest, WindowsFarIntoThePaddingTakeSegmentsOnDeviceTensors) {
  const SegmentsWheneverPlanned forced;
  Random random(derive_seed(test_seed(), kSegmentStream, 0));
  const PoolSpec window = window_spec({12, 10}, {1, 1}, {11, 9, 11, 9});
  const PoolSpec lp_window = lp_spec({12, 10}, {1, 1}, {11, 9, 11, 9}, 2);
  for (ElementType type : {ElementType::kFloat32, ElementType::kFloat16}) {
    HostTensor X(type, {1, 3, 6, 5});
    fill_with_ties(random, &X, 0.0);
    for (bool with_indices : {false, true}) {
      const int64_t before = calls_run_in_segments();
      EXPECT_TRUE(cuda_matches_cpu(make_max_pool_case(window, X, with_indices), CudaPlacement::kDeviceTensors))
          << "MaxPool " << type_label(type) << (with_indices ? " with Indices" : "");
      EXPECT_EQ(calls_run_in_segments() - before, 2) << "MaxPool " << type_label(type);
    }
    for (PoolOp op : {PoolOp::kAveragePool, PoolOp::kLpPool}) {
      const int64_t before = calls_run_in_segments();
      const PoolCase c = make_filled_sum_pool_case(random, op, op == PoolOp::kLpPool ? lp_window : window, X);
      EXPECT_TRUE(cuda_matches_cpu(c, CudaPlacement::kDeviceTensors)) << c.describe();
      EXPECT_EQ(calls_run_in_segments() - before, 2) << c.describe();
    }
  }
}

// Tensors that start one and three elements past an aligned address, as
// views into a larger allocation (a PyTorch slice) do. Its own suite so that
// gpu_check.sh can run it in a process of its own: a kernel that assumes
// more alignment raises a sticky CUDA error, which would fail every later
// test of the process.
class CudaMisalignedTest : public CudaTest {};

TEST_F(CudaMisalignedTest, ElementAlignedDeviceTensorsMatchTheCpuBackend) {
  const int count = scaled_case_count(kMisalignedCasesPerOp);
  for (int index = 0; index < count; ++index) {
    const uint64_t stream = kMisalignedStreamBase;
    const MaxPoolCase c = batch_case(stream, index, max_pool_types(), {1, 2, 3});
    const size_t offset = index % 2 == 0 ? 1 : 3;
    EXPECT_TRUE(cuda_matches_cpu(c, CudaPlacement::kDeviceTensors, offset))
        << "[stream " << stream << " case " << index << ", tensors " << offset << " elements past alignment] "
        << c.describe();
  }
  for (PoolOp op : sum_and_global_ops()) {
    const uint64_t stream = kMisalignedStreamBase + 1 + static_cast<uint64_t>(op);
    for (int index = 0; index < count; ++index) {
      const PoolCase c = pool_batch_case(stream, index, op, float_types(), {1, 2, 3});
      const size_t offset = index % 2 == 0 ? 1 : 3;
      EXPECT_TRUE(cuda_matches_cpu(c, CudaPlacement::kDeviceTensors, offset))
          << "[stream " << stream << " case " << index << ", tensors " << offset << " elements past alignment] "
          << c.describe();
    }
  }
}

}  // namespace
}  // namespace onnxpool_test
