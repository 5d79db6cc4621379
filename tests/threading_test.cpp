// pooling.h promises that calls are safe from many threads at once, and that
// the kernels' own thread count can be set. Both are checked against the
// reference, with cases large enough for the kernels to split their work.
#include <gtest/gtest.h>

#include <atomic>
#include <sstream>
#include <thread>

#include "onnxpool/pooling.h"
#include "support/maxpool_check.h"
#include "support/test_settings.h"

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

TEST_F(Threading, NegativeThreadCountIsRejectedAndChangesNothing) {
  ASSERT_TRUE(onnxpool::set_num_threads(2).is_ok());
  const onnxpool::Status status = onnxpool::set_num_threads(-1);
  EXPECT_EQ(status.code(), onnxpool::StatusCode::kInvalidArgument) << status.message();
  EXPECT_FALSE(status.message().empty());
  EXPECT_EQ(onnxpool::num_threads(), 2);
}

}  // namespace
}  // namespace onnxpool_test
