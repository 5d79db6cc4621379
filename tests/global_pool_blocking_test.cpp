// GlobalMaxPool's CPU kernels reduce a whole vector's worth of planes at
// once when the call's plane count and every task's are multiples of it
// (generators/schedules/global_cpu_schedule.cpp; the runtime rounds the
// grain and splits off the planes past a multiple of 16,
// runtime/execute/kernel_launch.h), and one plane at a time otherwise; the summing
// pools always go one plane at a time. Every way must match the reference
// and give the same bits for the same plane: a plane's result may depend
// neither on how many planes share the call nor on the thread count. Plane
// counts that are multiples of 32 (of every target's vector of planes) and
// the same planes one short of that (a multiple of 16 plus 15 planes one at
// a time), on every CPU variant, for every type and global operator.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "execute/kernel_launch.h"
#include "plan/plan.h"
#include "onnxpool/pooling.h"
#include "support/batch_outcome.h"
#include "support/cpu_variants.h"
#include "support/float_type_info.h"
#include "support/pool_cases.h"
#include "support/pool_check.h"
#include "support/random.h"
#include "support/tensor_compare.h"
#include "support/test_settings.h"
#include "support/value_fills.h"

namespace onnxpool_test {
namespace {

using onnxpool::PoolOp;

struct PlaneBatch {
  int64_t planes;
  int64_t plane_size;
};

// Planes shorter than a vector (1, 7: all tail), exactly one (16), whole
// vectors plus a tail (33, 49 = S5's 7x7, 1030), and 512 planes of 196
// (S7's 14x14), which the runtime splits into several tasks at 1 thread
// and more at 2 and 3.
const std::vector<PlaneBatch> kBatches{{32, 1}, {32, 7}, {64, 16}, {96, 33}, {32, 49}, {64, 1030}, {512, 196}};
const std::vector<PoolOp> kGlobalOps{PoolOp::kGlobalMaxPool, PoolOp::kGlobalAveragePool, PoolOp::kGlobalLpPool};
constexpr int64_t kWidestVectorOfPlanes = 16;

// Restores one thread and the native variant, whatever a test left.
class GlobalPoolBlocking : public testing::Test {
 protected:
  void TearDown() override {
    EXPECT_TRUE(onnxpool::set_num_threads(1));
    EXPECT_TRUE(onnxpool::set_cpu_variant_limit(onnxpool::CpuVariant::kNative));
  }
};

PoolCase batch_case(PoolOp op, ElementType type, const PlaneBatch& batch, uint64_t index) {
  Random random(derive_seed(test_seed(), 9300, index));
  HostTensor X(type, {2, batch.planes / 2, batch.plane_size});
  const PoolSpec spec = p_only(op == PoolOp::kGlobalLpPool ? 1 + static_cast<int64_t>(index % 3) : 2);
  if (op != PoolOp::kGlobalMaxPool) return make_filled_sum_pool_case(random, op, spec, std::move(X));
  fill_with_ties(random, &X, 0.05);
  return make_pool_case(op, spec, std::move(X));
}

// The same case on its first planes - 1 planes: one plane short of a vector.
PoolCase one_plane_short(const PoolCase& c) {
  const int64_t planes = c.X.shape()[0] * c.X.shape()[1] - 1;
  const int64_t plane_size = c.X.shape()[2];
  HostTensor X(c.X.type(), {1, planes, plane_size});
  for (int64_t i = 0; i < X.size(); ++i) X.copy_element(i, c.X, i);
  PoolCase shorter = c;
  shorter.X = X;
  return shorter;
}

// Y's first elements, as many as `shorter` holds, in its shape.
HostTensor first_elements_of(const HostTensor& Y, const HostTensor& shorter) {
  HostTensor prefix(Y.type(), shorter.shape());
  for (int64_t i = 0; i < prefix.size(); ++i) prefix.copy_element(i, Y, i);
  return prefix;
}

// The launch settings a call planned now would take (threads as set).
onnxpool::detail::LaunchSettings current_settings() {
  return onnxpool::detail::PlanContext::current().launch_settings();
}

TEST_F(GlobalPoolBlocking, TheRuntimeGrainKeepsVectorsOfPlanesWhole) {
  for (const PlaneBatch& batch : kBatches) {
    for (int threads : {1, 2, 3}) {
      ASSERT_TRUE(onnxpool::set_num_threads(threads));
      const int64_t grain = onnxpool::detail::global_planes_per_task(batch.plane_size, batch.planes, true,
                                                                     current_settings());
      EXPECT_EQ(grain % kWidestVectorOfPlanes, 0) << batch.planes << " planes of " << batch.plane_size;
      EXPECT_GE(grain, 1);
      EXPECT_LE(grain, batch.planes);
    }
  }
  // The 512-plane batch is split (at 1 thread already), so the kernels'
  // task loop is exercised, including a short last task at 2 threads.
  ASSERT_TRUE(onnxpool::set_num_threads(1));
  EXPECT_LT(onnxpool::detail::global_planes_per_task(196, 512, true, current_settings()), 512);
  ASSERT_TRUE(onnxpool::set_num_threads(2));
  EXPECT_NE(512 % onnxpool::detail::global_planes_per_task(196, 512, true, current_settings()), 0);
  // Plane counts with fewer factors of two get the factors they have.
  ASSERT_TRUE(onnxpool::set_num_threads(1));
  EXPECT_EQ(onnxpool::detail::global_planes_per_task(196, 8 * 75, true, current_settings()) % 16, 8);
  EXPECT_EQ(onnxpool::detail::global_planes_per_task(49, 7, true, current_settings()), 7);
  // The summing kernels take no vectors of planes: EfficientNet's 16 planes
  // of 120x120 split between 2 threads.
  ASSERT_TRUE(onnxpool::set_num_threads(2));
  EXPECT_EQ(onnxpool::detail::global_planes_per_task(120 * 120, 16, true, current_settings()), 16);
  EXPECT_LT(onnxpool::detail::global_planes_per_task(120 * 120, 16, false, current_settings()), 16);
}

// The case against the reference at 1 thread; then the same bits at 2 and
// 3 threads, and for its planes but the last in a call one plane short.
testing::AssertionResult matches_reference_with_the_same_bits_every_way(const PoolCase& c) {
  if (!onnxpool::set_num_threads(1)) return testing::AssertionFailure() << "set_num_threads(1) refused";
  testing::AssertionResult matches = pool_matches_reference(c);
  if (!matches) return matches;
  HostTensor Y;
  const onnxpool::Status status = library_pool(c, &Y);
  if (!status) return testing::AssertionFailure() << "at 1 thread: " << status.message();
  std::string differences;
  for (int threads : {2, 3}) {
    HostTensor Y_threads;
    if (!onnxpool::set_num_threads(threads) || !library_pool(c, &Y_threads)) {
      differences += "\n  the call at " + std::to_string(threads) + " threads failed";
      continue;
    }
    const testing::AssertionResult same = tensors_identical("Y at 1 thread", Y, Y_threads);
    if (!same) differences += "\n  at " + std::to_string(threads) + " threads: " + same.message();
  }
  HostTensor Y_short;
  if (!onnxpool::set_num_threads(1) || !library_pool(one_plane_short(c), &Y_short)) {
    differences += "\n  the call one plane short failed";
  } else {
    const testing::AssertionResult same =
        tensors_identical("Y of all planes", first_elements_of(Y, Y_short), Y_short);
    if (!same) differences += std::string("\n  one plane short: ") + same.message();
  }
  if (differences.empty()) return testing::AssertionSuccess();
  return testing::AssertionFailure() << "not the same bits as at 1 thread:" << differences;
}

TEST_F(GlobalPoolBlocking, VectorsOfPlanesMatchTheReferenceAndTheOnePlanePath) {
  BatchOutcome outcome;
  uint64_t index = 0;
  const int variants = on_each_cpu_variant([&](onnxpool::CpuVariant variant) {
    for (PoolOp op : kGlobalOps) {
      for (ElementType type : float_types()) {
        for (const PlaneBatch& batch : kBatches) {
          const PoolCase c = batch_case(op, type, batch, index++);
          record_variant_case(&outcome, variant, c.describe(), matches_reference_with_the_same_bits_every_way(c));
        }
      }
    }
  });
  EXPECT_EQ(outcome.cases_run,
            variants * static_cast<int>(kGlobalOps.size() * float_types().size() * kBatches.size()));
  EXPECT_TRUE(outcome.failures.empty()) << outcome.report();
}

}  // namespace
}  // namespace onnxpool_test
