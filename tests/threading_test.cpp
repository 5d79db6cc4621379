// pooling.h promises that calls are safe from many threads at once, and that
// the kernels' own thread count can be set. Both are checked against the
// reference, with cases large enough for the kernels to split their work:
// MaxPool alone, then every operator at once.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "onnxpool/pooling.h"
#include "support/float_type_info.h"
#include "support/maxpool_check.h"
#include "support/onnx_attributes.h"
#include "support/pool_check.h"
#include "support/test_settings.h"
#include "support/value_fills.h"

namespace onnxpool_test {
namespace {

constexpr int kCallerThreads = 8;
constexpr int kCasesPerThread = 12;
constexpr uint64_t kStreamBase = 2000;

// A ResNet-stem-like node, big enough to be split across kernel threads.
MaxPoolCase large_case(ElementType type, uint64_t stream) {
  PoolSpec spec;
  spec.kernel_shape = {3, 3};
  spec.strides = {2, 2};
  spec.pads = {1, 1, 1, 1};
  Random random(derive_seed(test_seed(), stream, 0));
  HostTensor X(type, {1, 8, 57, 57});
  fill_with_ties(random, &X, 0.01);
  return make_max_pool_case(spec, std::move(X), /*with_indices=*/true);
}

// The same for the other operators: a 3x3 stride-2 padded window, or for
// the global ones a [2, 8, 57, 57] X (planes of 3249).
PoolCase large_pool_case(onnxpool::PoolOp op, ElementType type, uint64_t stream) {
  Random random(derive_seed(test_seed(), stream, 0));
  PoolSpec spec;
  if (!is_global_pool(op)) {
    spec.kernel_shape = {3, 3};
    spec.strides = {2, 2};
    spec.pads = {1, 1, 1, 1};
  }
  spec.count_include_pad = op == onnxpool::PoolOp::kAveragePool;
  spec.p = op == onnxpool::PoolOp::kLpPool || op == onnxpool::PoolOp::kGlobalLpPool ? 3 : 2;
  HostTensor X(type, {is_global_pool(op) ? 2 : 1, 8, 57, 57});
  int scale_exponent = 0;
  if (op == onnxpool::PoolOp::kGlobalMaxPool) {
    fill_with_ties(random, &X, 0.001);
  } else {
    const bool average = op == onnxpool::PoolOp::kAveragePool || op == onnxpool::PoolOp::kGlobalAveragePool;
    scale_exponent = fill_for_sum_pool(random, &X, average ? SumPool::kAverage : SumPool::kLp);
  }
  PoolCase c = make_pool_case(op, spec, std::move(X));
  c.scale_exponent = scale_exponent;
  return c;
}

const std::vector<onnxpool::PoolOp> kEveryOperator{
    onnxpool::PoolOp::kMaxPool,       onnxpool::PoolOp::kAveragePool,       onnxpool::PoolOp::kLpPool,
    onnxpool::PoolOp::kGlobalMaxPool, onnxpool::PoolOp::kGlobalAveragePool, onnxpool::PoolOp::kGlobalLpPool};

std::vector<int> spatial_ranks_of(onnxpool::PoolOp op) {
  return is_global_pool(op) ? std::vector<int>{1, 2, 3, 4} : std::vector<int>{1, 2, 3};
}

class Threading : public testing::Test {
 protected:
  void TearDown() override { EXPECT_TRUE(onnxpool::set_num_threads(0).is_ok()); }
};

TEST_F(Threading, ConcurrentCallersOnDifferentShapesAndTypesMatchReference) {
  const int count = scaled_case_count(kCasesPerThread);
  std::vector<BatchOutcome> outcomes(kCallerThreads);
  std::vector<std::string> large_failures(kCallerThreads);
  std::atomic<int> waiting{kCallerThreads};
  std::vector<std::thread> callers;
  for (int t = 0; t < kCallerThreads; ++t) {
    callers.emplace_back([&, t] {
      const ElementType type = max_pool_types()[static_cast<size_t>(t) % max_pool_types().size()];
      // Start together, so that the calls really overlap.
      waiting.fetch_sub(1);
      while (waiting.load() > 0) std::this_thread::yield();
      const testing::AssertionResult large = library_matches_reference(large_case(type, kStreamBase + 100 + t));
      if (!large) large_failures[t] = large.message();
      outcomes[t] = run_random_max_pool_cases(kStreamBase + t, count, {type}, {1, 2, 3});
    });
  }
  for (std::thread& caller : callers) caller.join();
  for (int t = 0; t < kCallerThreads; ++t) {
    EXPECT_EQ(outcomes[t].cases_run, count);
    EXPECT_TRUE(outcomes[t].failures.empty()) << "caller " << t << ": " << outcomes[t].report();
    EXPECT_TRUE(large_failures[t].empty()) << "caller " << t << " large case: " << large_failures[t];
  }
}

TEST_F(Threading, KernelThreadCountsOneTwoAndDefault) {
  for (int threads : {1, 2, 0}) {
    const onnxpool::Status status = onnxpool::set_num_threads(threads);
    ASSERT_TRUE(status.is_ok()) << threads << ": " << status.message();
    if (threads > 0) {
      EXPECT_EQ(onnxpool::num_threads(), threads);
    } else {
      // "0 means one per hardware thread": reported either as 0 or as that count.
      const int reported = onnxpool::num_threads();
      EXPECT_TRUE(reported == 0 || reported == static_cast<int>(std::thread::hardware_concurrency()))
          << "num_threads() after set_num_threads(0): " << reported;
    }
    EXPECT_TRUE(library_matches_reference(large_case(ElementType::kFloat32, kStreamBase + 200)))
        << "with " << threads << " kernel threads";
    const BatchOutcome outcome = run_random_max_pool_cases(kStreamBase + 300 + threads, scaled_case_count(20),
                                                           max_pool_types(), {1, 2, 3});
    EXPECT_TRUE(outcome.failures.empty()) << "with " << threads << " kernel threads: " << outcome.report();
  }
}

// Every operator at once: caller t runs operator t % 6 on type t % 4.
TEST_F(Threading, ConcurrentCallersOfEveryOperatorMatchReference) {
  constexpr int kCallers = 12;
  const int count = scaled_case_count(kCasesPerThread);
  std::vector<BatchOutcome> outcomes(kCallers);
  std::vector<std::string> large_failures(kCallers);
  std::atomic<int> waiting{kCallers};
  std::vector<std::thread> callers;
  for (int t = 0; t < kCallers; ++t) {
    callers.emplace_back([&, t] {
      const onnxpool::PoolOp op = kEveryOperator[static_cast<size_t>(t) % kEveryOperator.size()];
      const ElementType type = float_types()[static_cast<size_t>(t) % float_types().size()];
      const uint64_t stream = kStreamBase + 400 + static_cast<uint64_t>(t);
      waiting.fetch_sub(1);
      while (waiting.load() > 0) std::this_thread::yield();
      if (op == onnxpool::PoolOp::kMaxPool) {
        const testing::AssertionResult large = library_matches_reference(large_case(type, stream + 100));
        if (!large) large_failures[t] = large.message();
        outcomes[t] = run_random_max_pool_cases(stream, count, {type}, {1, 2, 3});
      } else {
        const PoolCase c = large_pool_case(op, type, stream + 100);
        const testing::AssertionResult large = pool_matches_reference(c);
        if (!large) large_failures[t] = c.describe() + "\n  " + large.message();
        outcomes[t] = run_random_pool_cases(stream, count, op, {type}, spatial_ranks_of(op));
      }
    });
  }
  for (std::thread& caller : callers) caller.join();
  for (int t = 0; t < kCallers; ++t) {
    const char* op = onnxpool::op_name(kEveryOperator[static_cast<size_t>(t) % kEveryOperator.size()]);
    EXPECT_EQ(outcomes[t].cases_run, count);
    EXPECT_TRUE(outcomes[t].failures.empty()) << "caller " << t << " (" << op << "): " << outcomes[t].report();
    EXPECT_TRUE(large_failures[t].empty()) << "caller " << t << " (" << op << ") large case: " << large_failures[t];
  }
}

// Callers keep running checked cases while another thread keeps changing
// the process-wide settings under them: the kernels' thread count, the CPU
// variant limit and the backend (to OpenCL and back, where it runs). Every
// call must still succeed and match the reference, whichever settings it
// caught. Bounded in time, not in iterations.
TEST_F(Threading, SettingsChangedUnderConcurrentCallersNeverBreakACall) {
  // The operators whose float32 kernels every backend has (the OpenCL build
  // has no float32 LpPool range pass); ConcurrentCallersOfEveryOperator
  // covers the Lp pools.
  const std::vector<onnxpool::PoolOp> ops{onnxpool::PoolOp::kMaxPool, onnxpool::PoolOp::kAveragePool,
                                          onnxpool::PoolOp::kGlobalMaxPool, onnxpool::PoolOp::kGlobalAveragePool};
  const int callers_count = static_cast<int>(ops.size());
  const auto duration = std::chrono::milliseconds(1500);
  const onnxpool::Backend home = onnxpool::active_backend();
  auto case_right = [&](onnxpool::PoolOp op, uint64_t stream) {
    return op == onnxpool::PoolOp::kMaxPool ? bool(library_matches_reference(large_case(ElementType::kFloat32, stream)))
                                            : bool(pool_matches_reference(large_pool_case(op, ElementType::kFloat32, stream)));
  };
  // The other backend this process can really run these cases on, if any.
  std::vector<onnxpool::Backend> backends{home};
  for (onnxpool::Backend b : {onnxpool::Backend::kCpu, onnxpool::Backend::kOpenCL}) {
    if (b == home || !onnxpool::backend_compiled(b) || !onnxpool::set_backend(b).is_ok()) continue;
    bool works = true;
    for (onnxpool::PoolOp op : ops) works = works && case_right(op, kStreamBase + 900);
    ASSERT_TRUE(onnxpool::set_backend(home).is_ok());
    if (works) backends.push_back(b);
  }
  std::atomic<bool> stop{false};
  std::atomic<int> calls{0};
  std::vector<std::string> failures(static_cast<size_t>(callers_count));
  std::vector<std::thread> callers;
  for (int t = 0; t < callers_count; ++t) {
    callers.emplace_back([&, t] {
      const onnxpool::PoolOp op = ops[static_cast<size_t>(t)];
      const uint64_t stream = kStreamBase + 800 + static_cast<uint64_t>(t);
      const MaxPoolCase max_case = large_case(ElementType::kFloat32, stream);
      const PoolCase pool_case = large_pool_case(op, ElementType::kFloat32, stream);
      while (!stop.load() && failures[t].empty()) {
        const testing::AssertionResult result =
            op == onnxpool::PoolOp::kMaxPool ? library_matches_reference(max_case) : pool_matches_reference(pool_case);
        if (!result) failures[t] = result.message();
        calls.fetch_add(1);
      }
    });
  }
  int changes = 0;
  const onnxpool::CpuVariant variants[] = {onnxpool::CpuVariant::kAvx2, onnxpool::CpuVariant::kBaseline,
                                           onnxpool::CpuVariant::kAvx512, onnxpool::CpuVariant::kNative};
  const int thread_counts[] = {1, 2, 0, 3};
  const auto end = std::chrono::steady_clock::now() + duration;
  while (std::chrono::steady_clock::now() < end) {
    EXPECT_TRUE(onnxpool::set_num_threads(thread_counts[changes % 4]).is_ok());
    // A variant this CPU lacks is refused with a status; the limit stays.
    (void)onnxpool::set_cpu_variant_limit(variants[changes % 4]);
    EXPECT_TRUE(onnxpool::set_backend(backends[static_cast<size_t>(changes) % backends.size()]).is_ok());
    ++changes;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  stop.store(true);
  for (std::thread& caller : callers) caller.join();
  EXPECT_TRUE(onnxpool::set_backend(home).is_ok());
  EXPECT_TRUE(onnxpool::set_cpu_variant_limit(onnxpool::CpuVariant::kNative).is_ok());
  for (int t = 0; t < callers_count; ++t) {
    EXPECT_TRUE(failures[t].empty()) << "caller " << t << " (" << onnxpool::op_name(ops[t]) << "): " << failures[t];
  }
  // Enough of each for the interleavings to matter.
  EXPECT_GT(changes, 100);
  EXPECT_GT(calls.load(), 4 * callers_count);
  std::ostringstream summary;
  summary << calls.load() << " checked calls across " << changes << " setting changes, backends:";
  for (onnxpool::Backend b : backends) summary << ' ' << onnxpool::backend_name(b);
  RecordProperty("summary", summary.str());
}

TEST_F(Threading, KernelThreadCountsOneTwoAndDefaultForTheOtherOperators) {
  for (int threads : {1, 2, 0}) {
    ASSERT_TRUE(onnxpool::set_num_threads(threads).is_ok());
    for (onnxpool::PoolOp op : sum_and_global_ops()) {
      const PoolCase c = large_pool_case(op, ElementType::kFloat32, kStreamBase + 600 + static_cast<uint64_t>(op));
      EXPECT_TRUE(pool_matches_reference(c)) << c.describe() << "\nwith " << threads << " kernel threads";
      const BatchOutcome outcome = run_random_pool_cases(kStreamBase + 700 + static_cast<uint64_t>(op) * 4 + threads,
                                                         scaled_case_count(6), op, float_types(), spatial_ranks_of(op));
      EXPECT_TRUE(outcome.failures.empty()) << onnxpool::op_name(op) << " with " << threads
                                            << " kernel threads: " << outcome.report();
    }
  }
}

TEST_F(Threading, NegativeThreadCountIsRejectedAndChangesNothing) {
  ASSERT_TRUE(onnxpool::set_num_threads(2).is_ok());
  const onnxpool::Status status = onnxpool::set_num_threads(-1);
  EXPECT_EQ(status.code(), onnxpool::StatusCode::kInvalidArgument) << status.message();
  EXPECT_FALSE(status.message().empty());
  EXPECT_EQ(onnxpool::num_threads(), 2);
}

}  // namespace
}  // namespace onnxpool_test
