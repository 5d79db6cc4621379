// White box: runtime/platform/inline_vector.h, the lists a call keeps in place, and
// their move to the heap past their inline capacity.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "platform/inline_vector.h"

namespace {

using Small = onnxpool::detail::InlineVector<int64_t, 3>;

std::vector<int64_t> values(const Small& v) { return std::vector<int64_t>(v.begin(), v.end()); }

TEST(InlineVector, HoldsUpToItsCapacityAndThenMovesToTheHeap) {
  Small v;
  EXPECT_TRUE(v.empty());
  for (int64_t i = 0; i < 10; ++i) {
    v.push_back(10 * i);
    ASSERT_EQ(v.size(), static_cast<size_t>(i + 1));
    for (int64_t j = 0; j <= i; ++j) EXPECT_EQ(v[static_cast<size_t>(j)], 10 * j) << "after " << i + 1 << " values";
  }
  EXPECT_EQ(v.back(), 90);
  EXPECT_TRUE(v == std::vector<int64_t>({0, 10, 20, 30, 40, 50, 60, 70, 80, 90}));
}

TEST(InlineVector, PushingAnElementOfItselfAcrossTheMove) {
  Small v{1, 2, 3};  // full: the next value moves the list
  v.push_back(v[0]);
  EXPECT_EQ(values(v), std::vector<int64_t>({1, 2, 3, 1}));
}

TEST(InlineVector, CopiesInPlaceAndOnTheHeapAreIndependent) {
  for (size_t n : {2u, 7u}) {
    Small a;
    for (size_t i = 0; i < n; ++i) a.push_back(static_cast<int64_t>(i));
    Small b = a;
    b[0] = 100;
    b.push_back(5);
    EXPECT_EQ(a[0], 0) << n;
    EXPECT_EQ(a.size(), n);
    EXPECT_EQ(b.size(), n + 1);
    Small c;
    c = b;
    EXPECT_EQ(values(c), values(b)) << n;
  }
}

TEST(InlineVector, ResizeAssignClearAndRefill) {
  Small v;
  v.resize(2, 7);
  EXPECT_EQ(values(v), std::vector<int64_t>({7, 7}));
  v.resize(5, 1);  // past the capacity: the first two kept
  EXPECT_EQ(values(v), std::vector<int64_t>({7, 7, 1, 1, 1}));
  v.assign(4, 3);
  EXPECT_EQ(values(v), std::vector<int64_t>({3, 3, 3, 3}));
  v.clear();
  EXPECT_TRUE(v.empty());
  v = {4, 5};
  EXPECT_EQ(values(v), std::vector<int64_t>({4, 5}));
  EXPECT_EQ(Small(std::vector<int64_t>{1, 2, 3, 4, 5}).to_vector(), std::vector<int64_t>({1, 2, 3, 4, 5}));
}

TEST(InlineVector, EqualityWithAStdVector) {
  const Small v{1, 2};
  EXPECT_TRUE(v == std::vector<int64_t>({1, 2}));
  EXPECT_TRUE(v != std::vector<int64_t>({1, 2, 3}));
  EXPECT_TRUE(v != std::vector<int64_t>({1, 3}));
  EXPECT_TRUE(Small() == std::vector<int64_t>());
}

}  // namespace
