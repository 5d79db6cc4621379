// The kernels' scratch allocator (runtime/platform/scratch_allocator.h), white box:
// once installed, halide_malloc hands out 128-byte aligned blocks, reuses a
// freed block for the next request it fits, keeps distinct live blocks
// apart, survives blocks freed on another thread, and refuses a size whose
// bookkeeping would overflow instead of returning a short block; a call's
// pool reuses its own blocks without asking the system again, hands its
// blocks to the next call, and once the system refused one request fails
// every later one, even one a free block fits.
#include <gtest/gtest.h>

#include <HalideRuntime.h>

#include <cstdint>
#include <cstring>
#include <set>
#include <thread>
#include <vector>

#include "platform/halide_glue.h"
#include "platform/scratch_allocator.h"

namespace onnxpool_test {
namespace {

bool aligned(const void* p) { return reinterpret_cast<uintptr_t>(p) % 128 == 0; }

class ScratchAllocatorTest : public ::testing::Test {
 protected:
  void SetUp() override { onnxpool::detail::ensure_halide_configured(); }
};

TEST_F(ScratchAllocatorTest, BlocksAreAlignedAndWritable) {
  for (size_t bytes : {size_t(0), size_t(1), size_t(100), size_t(4096), size_t(1) << 20, size_t(9) << 20}) {
    void* p = halide_malloc(nullptr, bytes);
    ASSERT_NE(p, nullptr) << bytes;
    EXPECT_TRUE(aligned(p)) << bytes;
    std::memset(p, 0xA5, bytes);
    halide_free(nullptr, p);
  }
}

TEST_F(ScratchAllocatorTest, AFreedBlockServesTheNextRequestItFits) {
  void* first = halide_malloc(nullptr, 7000);
  ASSERT_NE(first, nullptr);
  halide_free(nullptr, first);
  void* again = halide_malloc(nullptr, 6000);
  EXPECT_EQ(again, first);
  halide_free(nullptr, again);
}

TEST_F(ScratchAllocatorTest, LiveBlocksNeverOverlap) {
  // More live blocks than the cache keeps, of mixed sizes, twice over so the
  // second round is served from the cache.
  const std::vector<size_t> sizes = {64, 7000, 300, 1 << 16, 129, 5000, 64};
  for (int round = 0; round < 2; ++round) {
    std::vector<unsigned char*> live;
    for (size_t i = 0; i < sizes.size(); ++i) {
      auto* p = static_cast<unsigned char*>(halide_malloc(nullptr, sizes[i]));
      ASSERT_NE(p, nullptr);
      ASSERT_TRUE(aligned(p));
      std::memset(p, int(i + 1), sizes[i]);
      live.push_back(p);
    }
    for (size_t i = 0; i < sizes.size(); ++i) {
      for (size_t b = 0; b < sizes[i]; ++b) ASSERT_EQ(live[i][b], i + 1) << "block " << i << " byte " << b;
    }
    std::set<unsigned char*> distinct(live.begin(), live.end());
    EXPECT_EQ(distinct.size(), live.size());
    for (unsigned char* p : live) halide_free(nullptr, p);
  }
}

TEST_F(ScratchAllocatorTest, BlocksMayBeFreedOnAnotherThread) {
  std::vector<void*> blocks;
  std::thread producer([&] {
    for (int i = 0; i < 8; ++i) blocks.push_back(halide_malloc(nullptr, 1000 * (i + 1)));
  });
  producer.join();
  std::thread consumer([&] {
    for (void* p : blocks) halide_free(nullptr, p);
    // The consumer's cache now holds some of them; it hands them out again.
    void* p = halide_malloc(nullptr, 2000);
    EXPECT_NE(p, nullptr);
    EXPECT_TRUE(aligned(p));
    halide_free(nullptr, p);
  });
  consumer.join();
}

TEST_F(ScratchAllocatorTest, OverflowingSizesAreRefused) {
  EXPECT_EQ(halide_malloc(nullptr, SIZE_MAX), nullptr);
  EXPECT_EQ(halide_malloc(nullptr, SIZE_MAX - 64), nullptr);
}

TEST_F(ScratchAllocatorTest, ACallReusesItsBlocksAndHandsThemToTheNext) {
  using onnxpool::detail::scratch_allocations_made;
  onnxpool::detail::release_cached_scratch_for_testing();
  const long before = scratch_allocations_made();
  {
    onnxpool::detail::CallContext call;
    void* first = halide_malloc(&call, 5000);
    ASSERT_NE(first, nullptr);
    halide_free(&call, first);
    void* again = halide_malloc(&call, 4000);
    EXPECT_EQ(again, first);
    halide_free(&call, again);
  }
  EXPECT_EQ(scratch_allocations_made() - before, 1);
  {
    onnxpool::detail::CallContext next;
    void* block = halide_malloc(&next, 5000);
    ASSERT_NE(block, nullptr);
    halide_free(&next, block);
  }
  EXPECT_EQ(scratch_allocations_made() - before, 1) << "the next call took a new block";
}

TEST_F(ScratchAllocatorTest, OnceRefusedACallGetsNoMoreBlocks) {
  onnxpool::detail::release_cached_scratch_for_testing();
  onnxpool::detail::CallContext call;
  void* kept = halide_malloc(&call, 3000);
  ASSERT_NE(kept, nullptr);
  halide_free(&call, kept);  // free, and it fits the last request below
  onnxpool::detail::refuse_scratch_allocations_for_testing(0, 1);
  EXPECT_EQ(halide_malloc(&call, 1 << 20), nullptr);
  EXPECT_EQ(onnxpool::detail::scratch_refusals_left(), 0);
  EXPECT_EQ(halide_malloc(&call, 100), nullptr) << "a refused call handed out another block";
  onnxpool::detail::refuse_scratch_allocations_for_testing(0, 0);
}

}  // namespace
}  // namespace onnxpool_test
