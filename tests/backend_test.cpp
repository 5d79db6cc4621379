// The backend choice (onnxpool::set_backend) and where tensors live: which
// backends this build has, that a call's tensors must share one device, and
// that a GPU backend without its driver answers with a status, untouched
// outputs and no abort.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "onnxpool/pooling.h"
#include "reference/host_tensor.h"
#include "support/status_checks.h"

namespace onnxpool_test {
namespace {

using onnxpool::Backend;
using onnxpool::Device;
using onnxpool::ElementType;
using onnxpool::PoolAttributes;
using onnxpool::PoolOp;
using onnxpool::Status;
using onnxpool::StatusCode;
using onnxpool::TensorView;
using Ints = std::vector<int64_t>;

constexpr Backend kAllBackends[] = {Backend::kCpu, Backend::kOpenCL, Backend::kCuda};

// What CMake compiled in (ONNXPOOL_GPU_TARGET_BACKENDS), e.g. "kOpenCL,kCuda".
bool build_lists(Backend backend) {
  const std::string listed = ONNXPOOL_TEST_GPU_BACKENDS;
  switch (backend) {
    case Backend::kCpu: return true;
    case Backend::kOpenCL: return listed.find("kOpenCL") != std::string::npos;
    case Backend::kCuda: return listed.find("kCuda") != std::string::npos;
  }
  return false;
}

// Restores the CPU backend whatever a test set.
class BackendTest : public testing::Test {
 protected:
  void TearDown() override { ASSERT_TRUE(onnxpool::set_backend(Backend::kCpu).is_ok()); }

  PoolAttributes max_pool_2x2() {
    PoolAttributes attributes;
    const Status status =
        PoolAttributes::parse(PoolOp::kMaxPool, onnxpool::Attributes().set("kernel_shape", Ints{2, 2}), &attributes);
    EXPECT_TRUE(status.is_ok()) << status.message();
    return attributes;
  }
};

TEST_F(BackendTest, CompiledBackendsAreThoseTheBuildLists) {
  for (Backend backend : kAllBackends) {
    EXPECT_EQ(onnxpool::backend_compiled(backend), build_lists(backend)) << onnxpool::backend_name(backend);
  }
}

TEST_F(BackendTest, CompiledBackendsCanBeSelectedOthersAreRefused) {
  for (Backend backend : kAllBackends) {
    const Status status = onnxpool::set_backend(backend);
    if (onnxpool::backend_compiled(backend)) {
      EXPECT_TRUE(status.is_ok()) << status.message();
      EXPECT_EQ(onnxpool::active_backend(), backend);
    } else {
      EXPECT_TRUE(rejected(status, StatusCode::kUnsupported, {"ONNXPOOL_GPU_TARGETS"}));
      EXPECT_EQ(onnxpool::active_backend(), Backend::kCpu);
    }
  }
}

TEST_F(BackendTest, UnknownBackendIsRejected) {
  EXPECT_TRUE(rejected(onnxpool::set_backend(static_cast<Backend>(42)), StatusCode::kInvalidArgument,
                       {"set_backend"}));
  EXPECT_EQ(onnxpool::active_backend(), Backend::kCpu);
}

TEST_F(BackendTest, BackendNamesAreTheRunnersDeviceNames) {
  EXPECT_STREQ(onnxpool::backend_name(Backend::kCpu), "cpu");
  EXPECT_STREQ(onnxpool::backend_name(Backend::kOpenCL), "opencl");
  EXPECT_STREQ(onnxpool::backend_name(Backend::kCuda), "cuda");
}

// Y claims CUDA device memory while X is on the host. No byte is ever read or
// written through the claimed device address.
TEST_F(BackendTest, TensorsOnDifferentDevicesAreRejected) {
  HostTensor X(ElementType::kFloat32, {1, 1, 4, 4});
  SentinelBuffer y_memory;
  const TensorView Y(y_memory.data(), ElementType::kFloat32, {1, 1, 3, 3}, Device::kCuda);
  const Status status = onnxpool::max_pool(max_pool_2x2(), X.view(), Y);
  if (onnxpool::backend_compiled(Backend::kCuda)) {
    EXPECT_TRUE(rejected(status, StatusCode::kInvalidArgument, {"Y"}));
  } else {
    EXPECT_TRUE(rejected(status, StatusCode::kUnsupported, {"Y"}));
  }
  EXPECT_TRUE(y_memory.untouched());
}

TEST_F(BackendTest, UnknownDeviceIsRejected) {
  HostTensor X(ElementType::kFloat32, {1, 1, 4, 4});
  TensorView x_view = X.view();
  x_view.device = static_cast<Device>(9);
  SentinelBuffer y_memory;
  const TensorView Y(y_memory.data(), ElementType::kFloat32, {1, 1, 3, 3});
  EXPECT_TRUE(rejected(onnxpool::max_pool(max_pool_2x2(), x_view, Y), StatusCode::kInvalidArgument, {"X"}));
  EXPECT_TRUE(y_memory.untouched());
}

bool cuda_driver_loadable() {
  for (const char* name : {"libcuda.so.1", "libcuda.so"}) {
    if (void* handle = dlopen(name, RTLD_LAZY | RTLD_LOCAL)) {
      dlclose(handle);
      return true;
    }
  }
  return false;
}

// Host tensors on the CUDA backend. Without libcuda (CI) the call must come
// back as a status that names the backend, with Y untouched; with a driver,
// either the right maxima or such a status (no device). A build without CUDA
// kernels refuses the backend outright.
TEST_F(BackendTest, CudaBackendAnswersWithResultsOrAStatus) {
  if (!onnxpool::backend_compiled(Backend::kCuda)) {
    EXPECT_TRUE(rejected(onnxpool::set_backend(Backend::kCuda), StatusCode::kUnsupported, {"cuda"}));
    return;
  }
  ASSERT_TRUE(onnxpool::set_backend(Backend::kCuda).is_ok());
  HostTensor X(ElementType::kFloat32, {1, 1, 4, 4});
  for (int64_t i = 0; i < X.size(); ++i) X.set(i, static_cast<double>(i));
  SentinelBuffer y_memory;
  const TensorView Y(y_memory.data(), ElementType::kFloat32, {1, 1, 3, 3});
  const Status status = onnxpool::max_pool(max_pool_2x2(), X.view(), Y);
  if (!cuda_driver_loadable() || !status.is_ok()) {
    EXPECT_TRUE(rejected(status, StatusCode::kUnsupported, {"cuda"})) << status.message();
    EXPECT_TRUE(y_memory.untouched());
    return;
  }
  const float* y = static_cast<const float*>(y_memory.data());
  const float expected[] = {5, 6, 7, 9, 10, 11, 13, 14, 15};
  for (int i = 0; i < 9; ++i) EXPECT_EQ(y[i], expected[i]) << i;
}

}  // namespace
}  // namespace onnxpool_test
