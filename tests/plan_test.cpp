// The planner (runtime/plan/plan.h), white box and without running a kernel:
// which kernel family, target and route each kind of call gets, for CPUs
// this machine may not have (PlanContext::for_cpu_variant).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "onnxpool/onnxpool.h"
#include "plan/plan.h"
#include "support/forced_segments.h"
#include "support/kernel_buffer_limit.h"
#include "support/plan_verdict.h"

namespace onnxpool_test {
namespace {

using onnxpool::CpuVariant;
using onnxpool::ElementType;
using onnxpool::PoolOp;
using onnxpool::Status;
using onnxpool::detail::KernelVariant;
using onnxpool::detail::Plan;
using onnxpool::detail::PlanContext;
using onnxpool::detail::Route;
using Ints = std::vector<int64_t>;

struct Node {
  PoolOp op = PoolOp::kMaxPool;
  Ints kernel, strides, pads;
  int64_t p = 2;
};

Status plan_node(const Node& node, const Ints& x_shape, ElementType type, bool with_indices,
                 const PlanContext& context, Plan* plan) {
  onnxpool::Attributes raw;
  if (!node.kernel.empty()) raw.set("kernel_shape", node.kernel);
  if (!node.strides.empty()) raw.set("strides", node.strides);
  if (!node.pads.empty()) raw.set("pads", node.pads);
  if (node.op == PoolOp::kLpPool || node.op == PoolOp::kGlobalLpPool) raw.set("p", node.p);
  onnxpool::PoolAttributes attributes;
  Status s = onnxpool::PoolAttributes::parse(node.op, raw, &attributes);
  if (!s) return s;
  const onnxpool::TensorView X(nullptr, type, x_shape);
  return onnxpool::detail::plan_call(node.op, attributes, X, nullptr, nullptr, with_indices, context, plan);
}

Plan planned(const Node& node, const Ints& x_shape, ElementType type = ElementType::kFloat32,
             const PlanContext& context = PlanContext::current(), bool with_indices = false) {
  Plan plan;
  const Status s = plan_node(node, x_shape, type, with_indices, context, &plan);
  EXPECT_TRUE(s) << s.message();
  return plan;
}

CpuVariant variant_of(int target) {
  return onnxpool::detail::target_info(static_cast<size_t>(target)).cpu_variant;
}

bool x86_build() { return PlanContext::for_cpu_variant(CpuVariant::kAvx512, 1).cpu_target >= 0 &&
                          variant_of(PlanContext::for_cpu_variant(CpuVariant::kAvx512, 1).cpu_target) ==
                              CpuVariant::kAvx512; }

const Node kMax3x3s2{PoolOp::kMaxPool, {3, 3}, {2, 2}, {}};

TEST(Planner, NarrowRowsStepDownToAVectorThatFits) {
  // 1x192x28x28 3x3/s2: 13-wide output rows, narrower than AVX-512's 16
  // float32 lanes: the AVX2 separable kernel (8 lanes), on x86 builds.
  const PlanContext avx512 = PlanContext::for_cpu_variant(CpuVariant::kAvx512, 2);
  const Plan plan = planned(kMax3x3s2, {1, 192, 28, 28}, ElementType::kFloat32, avx512);
  EXPECT_EQ(plan.route, Route::kWhole);
  EXPECT_EQ(plan.launch.kernel->variant, KernelVariant::kPlain);
  EXPECT_EQ(verdict(plan, "separable"), "accepted");
  if (x86_build()) {
    EXPECT_EQ(variant_of(plan.launch.target), CpuVariant::kAvx2);
    ASSERT_NE(plan.target_reason, nullptr);
    // Rows of 16 and more keep AVX-512.
    const Plan wide = planned(kMax3x3s2, {1, 64, 40, 40}, ElementType::kFloat32, avx512);
    EXPECT_EQ(variant_of(wide.launch.target), CpuVariant::kAvx512);
    EXPECT_EQ(wide.target_reason, nullptr);
  } else {
    // One CPU target (ARM64: NEON): nothing narrower to step down to.
    EXPECT_EQ(plan.launch.target, avx512.cpu_target);
    EXPECT_EQ(plan.target_reason, nullptr);
  }
  EXPECT_EQ(plan.launch.settings.threads, 2);
}

TEST(Planner, SameWindowsOnSmallPlanesTakeTheFlatPlaneKernel) {
  const Node same{PoolOp::kMaxPool, {3, 3}, {1, 1}, {1, 1, 1, 1}};
  const Plan plan = planned(same, {1, 192, 28, 28});
  EXPECT_EQ(verdict(plan, "flat-plane"), "accepted");
  EXPECT_EQ(plan.launch.kernel->variant, KernelVariant::kFlatPlane);
  EXPECT_EQ(verdict(plan, "halving"), "not weighed");
  ASSERT_NE(plan.launch.scalar("width"), nullptr);
  EXPECT_EQ(plan.launch.scalar("width")->number, 28);
  // Too few planes for the tasks wanted: the separable kernel.
  // (63000 outputs on 8 threads want 3 tasks of at least 16K outputs.)
  const Plan few =
      planned(same, {1, 1, 1000, 63}, ElementType::kFloat32, PlanContext::for_cpu_variant(CpuVariant::kNative, 8));
  EXPECT_EQ(few.launch.kernel->variant, KernelVariant::kPlain);
  EXPECT_EQ(verdict(few, "flat-plane"), "fewer planes than parallel tasks wanted");
  // With Indices, only the global kernels' candidates are weighed, and decline.
  const Plan indices = planned(same, {1, 192, 28, 28}, ElementType::kFloat32, PlanContext::current(), true);
  EXPECT_EQ(indices.launch.kernel->variant, KernelVariant::kWithIndices);
  ASSERT_EQ(indices.verdicts.size(), 3u);
  EXPECT_EQ(verdict(indices, "whole plane"), "MaxPool asks for Indices (the global kernels have none)");
  EXPECT_EQ(verdict(indices, "covered axes first"), "MaxPool asks for Indices (the global kernels have none)");
  EXPECT_EQ(verdict(indices, "separable with Indices"), "accepted");
}

TEST(Planner, TwoByTwoStrideTwoInsideTheInputTakesTheHalvingKernel) {
  const Node halving{PoolOp::kAveragePool, {2, 2}, {2, 2}, {}};
  const Plan plan = planned(halving, {1, 128, 56, 56});
  EXPECT_EQ(verdict(plan, "flat-plane"), "not a stride-1 window with a 'same' output");
  EXPECT_EQ(verdict(plan, "halving"), "accepted");
  EXPECT_EQ(plan.launch.kernel->variant, KernelVariant::kHalving);
  // A pad makes the last window reach past the input.
  const Node padded{PoolOp::kAveragePool, {2, 2}, {2, 2}, {1, 1, 1, 1}};
  const Plan past = planned(padded, {1, 128, 56, 56});
  EXPECT_EQ(verdict(past, "halving"), "windows reaching past the input");
  EXPECT_EQ(past.launch.kernel->variant, KernelVariant::kPlain);
  ASSERT_EQ(past.launch.count_begin.size(), 2u);
}

TEST(Planner, LpPoolTriesFloat32SumsFirstWithTheExactKernelBehind) {
  const Node lp{PoolOp::kLpPool, {3, 3}, {2, 2}, {1, 1, 1, 1}, 2};
  const Plan plan = planned(lp, {1, 64, 56, 56});
  EXPECT_EQ(plan.route, Route::kFloat32LpFirst);
  EXPECT_EQ(plan.launch.kernel->variant, KernelVariant::kFloat32Sum);
  ASSERT_NE(plan.exact, nullptr);
  EXPECT_EQ(plan.exact->variant, KernelVariant::kPlain);
  ASSERT_NE(plan.range_check, nullptr);
  // p = 7 underflows float32's wide sums: the scaled kernel is the exact one.
  const Plan large_p = planned(Node{PoolOp::kLpPool, {3, 3}, {2, 2}, {}, 7}, {1, 4, 9, 9});
  const auto* exact = large_p.route == Route::kFloat32LpFirst ? large_p.exact : large_p.launch.kernel;
  EXPECT_EQ(exact->variant, KernelVariant::kScaled);
  // float64 has no float32 sums.
  const Plan f64 = planned(Node{PoolOp::kGlobalLpPool, {}, {}, {}, 2}, {1, 4, 9, 9}, ElementType::kFloat64);
  EXPECT_EQ(f64.route, Route::kWhole);
  EXPECT_EQ(verdict(f64, "float32 sums"), "not in this build for this type and rank");
  EXPECT_EQ(verdict(f64, "exact scaled sums"), "accepted");
}

TEST(Planner, GlobalPoolsTakeTheGlobalReduction) {
  const Plan plan = planned(Node{PoolOp::kGlobalAveragePool}, {1, 2048, 7, 7});
  EXPECT_EQ(plan.route, Route::kWhole);
  EXPECT_EQ(plan.launch.kernel->spatial_rank, 0);
  EXPECT_EQ(verdict(plan, "global reduction"), "accepted");
  EXPECT_EQ(plan.target_reason, nullptr);  // they step along planes, not rows
}

TEST(Planner, RoutesForEmptyHugeAndFarPaddedCalls) {
  EXPECT_EQ(planned(kMax3x3s2, {0, 3, 9, 9}).route, Route::kNothing);
  // An empty axis whose pads give it a window.
  const Node padded{PoolOp::kMaxPool, {2}, {1}, {1, 1}};
  EXPECT_EQ(planned(padded, {1, 3, 0}).route, Route::kWindowsWithoutInput);
  {
    // Planes past the (lowered) kernel buffer: pieces, which flat-plane
    // kernels cannot take.
    const KernelBufferLimit limit(4096);
    const Node same{PoolOp::kMaxPool, {3, 3}, {1, 1}, {1, 1, 1, 1}};
    const Plan plan = planned(same, {1, 64, 40, 40});
    EXPECT_EQ(plan.route, Route::kPieces);
    EXPECT_EQ(verdict(plan, "flat-plane"), "the call is cut (flat-plane kernels take whole planes)");
  }
  {
    const SegmentsWheneverPlanned segments;
    const Node far{PoolOp::kAveragePool, {9, 9}, {1, 1}, {8, 8, 8, 8}};
    const Plan plan = planned(far, {1, 2, 4, 4});
    EXPECT_EQ(plan.route, Route::kSegments);
    EXPECT_EQ(plan.launch.kernel->variant, KernelVariant::kPlain);
  }
}

TEST(Planner, ErrorsAreTheOneShotFunctionsErrors) {
  Plan plan;
  const Status rank = plan_node(kMax3x3s2, {1, 3, 9, 9, 9}, ElementType::kFloat32, false, PlanContext::current(), &plan);
  EXPECT_EQ(rank.code(), onnxpool::StatusCode::kInvalidArgument);
  EXPECT_NE(rank.message().find("kernel_shape"), std::string::npos) << rank.message();
  const Status type = plan_node(Node{PoolOp::kAveragePool, {2, 2}}, {1, 3, 4, 4}, ElementType::kInt8, false,
                                PlanContext::current(), &plan);
  EXPECT_EQ(type.code(), onnxpool::StatusCode::kUnsupported);
  const Status indices = plan_node(Node{PoolOp::kAveragePool, {2, 2}}, {1, 3, 4, 4}, ElementType::kFloat32, true,
                                   PlanContext::current(), &plan);
  EXPECT_EQ(indices.code(), onnxpool::StatusCode::kInvalidArgument);
  EXPECT_NE(indices.message().find("Indices"), std::string::npos) << indices.message();
}

TEST(Planner, DescribesEveryDecision) {
  const Plan plan = planned(kMax3x3s2, {1, 192, 28, 28}, ElementType::kFloat32, PlanContext::for_cpu_variant(CpuVariant::kNative, 3));
  const std::string words = plan.describe();
  for (const char* part : {"MaxPool float32 -> Y [1, 192, 13, 13]", "route: whole", "kernel: ", "target: cpu ",
                           "threads: 3", "flat-plane declined (not a stride-1 window", "separable accepted"}) {
    EXPECT_NE(words.find(part), std::string::npos) << part << " in: " << words;
  }
}

}  // namespace
}  // namespace onnxpool_test
