// Which CPU target runs a separable or 2x2 halving kernel on output rows
// narrower than a vector (runtime/plan/narrow_rows.h; white box): the widest allowed target whose
// vector fits in a row, the narrowest allowed one when none fits, and never
// one outside set_cpu_variant_limit. Results on such rows are checked against
// the reference on every CPU variant by the property and corner-case tests.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "dispatch/cpu_dispatch.h"
#include "dispatch/kernel_registry.h"
#include "plan/narrow_rows.h"
#include "onnxpool/pooling.h"
#include "plan/plan.h"
#include "support/cpu_variants.h"

namespace onnxpool_test {
namespace {

using onnxpool::detail::KernelEntry;
using onnxpool::detail::KernelVariant;

std::vector<size_t> allowed_targets(const KernelEntry& kernel) {
  std::vector<size_t> allowed;
  for (size_t t = 0; t < onnxpool::detail::target_count(); ++t) {
    if (onnxpool::detail::cpu_target_allowed(t) && kernel.run[t] != nullptr) allowed.push_back(t);
  }
  return allowed;
}

void expect_widest_that_fits(const KernelEntry& kernel, int64_t width) {
  const int best = onnxpool::detail::pick_cpu_target();
  ASSERT_GE(best, 0);
  const int chosen = onnxpool::detail::cpu_target_for_rows(
      kernel, width, best, onnxpool::detail::PlanContext::current().allowed_cpu_targets);
  const std::vector<size_t> allowed = allowed_targets(kernel);
  ASSERT_FALSE(allowed.empty());
  int expected = static_cast<int>(allowed.back());  // none fits: the narrowest
  for (size_t t : allowed) {                        // best (widest) first
    if (onnxpool::detail::vector_lanes(kernel, t) <= width) {
      expected = static_cast<int>(t);
      break;
    }
  }
  EXPECT_EQ(chosen, expected) << "row width " << width;
  EXPECT_TRUE(onnxpool::detail::cpu_target_allowed(static_cast<size_t>(chosen)));
}

TEST(NarrowRows, TheWidestAllowedVectorThatFitsARow) {
  const KernelEntry* maxpool = onnxpool::detail::find_kernel(onnxpool::PoolOp::kMaxPool,
                                                             onnxpool::ElementType::kFloat32, 2, KernelVariant::kPlain);
  const KernelEntry* average = onnxpool::detail::find_kernel(
      onnxpool::PoolOp::kAveragePool, onnxpool::ElementType::kFloat64, 3, KernelVariant::kPlain);
  const KernelEntry* indices = onnxpool::detail::find_kernel(
      onnxpool::PoolOp::kMaxPool, onnxpool::ElementType::kInt8, 1, KernelVariant::kWithIndices);
  const KernelEntry* halving = onnxpool::detail::find_kernel(
      onnxpool::PoolOp::kMaxPool, onnxpool::ElementType::kFloat16, 2, KernelVariant::kHalving);
  ASSERT_NE(maxpool, nullptr);
  ASSERT_NE(average, nullptr);
  ASSERT_NE(indices, nullptr);
  ASSERT_NE(halving, nullptr);
  for (onnxpool::CpuVariant limit : runnable_cpu_variants()) {
    ASSERT_TRUE(onnxpool::set_cpu_variant_limit(limit));
    for (const KernelEntry* kernel : {maxpool, average, indices, halving}) {
      for (int64_t width : {1, 2, 3, 4, 7, 8, 14, 15, 16, 17, 28, 32, 56, 1000}) {
        expect_widest_that_fits(*kernel, width);
      }
    }
  }
  ASSERT_TRUE(onnxpool::set_cpu_variant_limit(onnxpool::CpuVariant::kNative));
}

TEST(NarrowRows, LanesFollowTheKernelsStepType) {
  const int best = onnxpool::detail::pick_cpu_target();
  ASSERT_GE(best, 0);
  const auto lanes = [best](onnxpool::PoolOp op, onnxpool::ElementType type, KernelVariant variant) {
    const KernelEntry* kernel = onnxpool::detail::find_kernel(op, type, 2, variant);
    EXPECT_NE(kernel, nullptr);
    return kernel == nullptr ? 0 : onnxpool::detail::vector_lanes(*kernel, static_cast<size_t>(best));
  };
  using onnxpool::ElementType;
  using onnxpool::PoolOp;
  const int f32 = lanes(PoolOp::kMaxPool, ElementType::kFloat32, KernelVariant::kPlain);
  EXPECT_GE(f32, 4);
  // MaxPool's keys are as wide as the element; Indices kernels count 32-bit positions.
  EXPECT_EQ(lanes(PoolOp::kMaxPool, ElementType::kUInt8, KernelVariant::kPlain), 4 * f32);
  EXPECT_EQ(lanes(PoolOp::kMaxPool, ElementType::kUInt8, KernelVariant::kWithIndices), f32);
  EXPECT_EQ(lanes(PoolOp::kMaxPool, ElementType::kFloat64, KernelVariant::kPlain), f32 / 2);
  // The 2x2 halving kernels step as their separable kin: 16-bit keys, float32 sums of float16.
  EXPECT_EQ(lanes(PoolOp::kMaxPool, ElementType::kFloat16, KernelVariant::kHalving), 2 * f32);
  EXPECT_EQ(lanes(PoolOp::kAveragePool, ElementType::kFloat16, KernelVariant::kHalving), f32);
  // The sums of 16-bit floats are float32; LpPool's exact float32 sums are float64.
  EXPECT_EQ(lanes(PoolOp::kAveragePool, ElementType::kFloat16, KernelVariant::kPlain), f32);
  EXPECT_EQ(lanes(PoolOp::kLpPool, ElementType::kFloat32, KernelVariant::kPlain), f32 / 2);
  EXPECT_EQ(lanes(PoolOp::kLpPool, ElementType::kFloat32, KernelVariant::kFloat32Sum), f32);
}

TEST(NarrowRows, TheKernelsThatStepAlongOutputRows) {
  using onnxpool::ElementType;
  using onnxpool::PoolOp;
  const auto steps_along_rows = [](PoolOp op, int rank, KernelVariant variant) {
    const KernelEntry* kernel = onnxpool::detail::find_kernel(op, ElementType::kFloat32, rank, variant);
    EXPECT_NE(kernel, nullptr);
    return kernel != nullptr && onnxpool::detail::steps_along_output_rows(*kernel);
  };
  EXPECT_TRUE(steps_along_rows(PoolOp::kMaxPool, 2, KernelVariant::kPlain));
  EXPECT_TRUE(steps_along_rows(PoolOp::kMaxPool, 1, KernelVariant::kWithIndices));
  EXPECT_TRUE(steps_along_rows(PoolOp::kLpPool, 3, KernelVariant::kScaled));
  EXPECT_TRUE(steps_along_rows(PoolOp::kAveragePool, 2, KernelVariant::kHalving));
  EXPECT_TRUE(steps_along_rows(PoolOp::kMaxPool, 2, KernelVariant::kHalving));
  EXPECT_FALSE(steps_along_rows(PoolOp::kMaxPool, 2, KernelVariant::kFlatPlane));
  EXPECT_FALSE(steps_along_rows(PoolOp::kGlobalMaxPool, 0, KernelVariant::kPlain));
}

}  // namespace
}  // namespace onnxpool_test
