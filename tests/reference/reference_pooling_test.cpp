// The reference operators on small inputs whose answers are worked out by
// hand, covering each rule of docs/semantics.md once.
#include "reference/reference_pooling.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace onnxpool_test {
namespace {

using Ints = std::vector<int64_t>;
constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

HostTensor tensor(ElementType type, Ints shape, const std::vector<double>& values) {
  HostTensor t(type, std::move(shape));
  if (static_cast<int64_t>(values.size()) != t.size()) throw std::logic_error("test tensor: wrong value count");
  for (int64_t i = 0; i < t.size(); ++i) t.set(i, values[static_cast<size_t>(i)]);
  return t;
}

std::vector<double> values_of(const HostTensor& t) {
  std::vector<double> values;
  for (int64_t i = 0; i < t.size(); ++i) values.push_back(t.get(i));
  return values;
}

Ints indices_of(const HostTensor& t) {
  Ints values;
  for (int64_t i = 0; i < t.size(); ++i) values.push_back(t.get_int64(i));
  return values;
}

PoolSpec max_spec(Ints kernel, Ints strides = {}, Ints pads = {}) {
  PoolSpec spec;
  spec.kernel_shape = std::move(kernel);
  spec.strides = std::move(strides);
  spec.pads = std::move(pads);
  return spec;
}

TEST(ReferenceMaxPool, PaddedWindowsAndIndicesIn1D) {
  const HostTensor X = tensor(ElementType::kFloat32, {1, 1, 5}, {3, -1, 4, 1, -5});
  const MaxPoolResult r = reference_max_pool(max_spec({3}, {2}, {1, 1}), X);
  EXPECT_EQ(r.Y.shape(), (Ints{1, 1, 3}));
  EXPECT_EQ(values_of(r.Y), (std::vector<double>{3, 4, 1}));
  EXPECT_EQ(indices_of(r.Indices), (Ints{0, 2, 3}));
}

TEST(ReferenceMaxPool, IndicesIncludeBatchAndChannelOffsets) {
  const HostTensor X = tensor(ElementType::kFloat32, {2, 2, 3}, {1, 9, 2, 8, 0, 0, 5, 5, 7, 0, 6, 6});
  const MaxPoolResult r = reference_max_pool(max_spec({3}), X);
  EXPECT_EQ(values_of(r.Y), (std::vector<double>{9, 8, 7, 6}));
  EXPECT_EQ(indices_of(r.Indices), (Ints{1, 3, 8, 10}));  // plane n*C + c starts at 3 * (n*C + c)
}

TEST(ReferenceMaxPool, StorageOrderChangesOnlyTheIndexEncoding) {
  // 3 x 4 plane; the 2x2 window at rows 1-2, columns 2-3 holds two 9s.
  const HostTensor X = tensor(ElementType::kFloat32, {1, 1, 3, 4},
                              {0, 0, 0, 0,
                               0, 0, 1, 9,
                               0, 0, 9, 2});
  PoolSpec spec = max_spec({2, 2}, {1, 2});
  const MaxPoolResult row_major = reference_max_pool(spec, X);
  spec.storage_order = 1;
  const MaxPoolResult column_major = reference_max_pool(spec, X);
  EXPECT_TRUE(row_major.Y.same_bytes(column_major.Y));
  // Output (1, 1) sees (1,2)=1 (1,3)=9 (2,2)=9 (2,3)=2. A column-major scan
  // would meet (2,2) first, but the row-major scan decides: (1,3), encoded
  // row-major as 1*4+3 = 7 and column-major as 3*3+1 = 10.
  EXPECT_EQ(indices_of(row_major.Indices), (Ints{0, 7, 4, 7}));
  EXPECT_EQ(indices_of(column_major.Indices), (Ints{0, 10, 1, 10}));
}

TEST(ReferenceMaxPool, TiesGoToTheFirstTapInScanOrder) {
  const HostTensor X = tensor(ElementType::kInt8, {1, 1, 2, 2}, {7, 7, 7, 7});
  const MaxPoolResult r = reference_max_pool(max_spec({2, 2}), X);
  EXPECT_EQ(indices_of(r.Indices), Ints{0});
}

TEST(ReferenceMaxPool, NanPropagatesFromItsFirstPosition) {
  const HostTensor X = tensor(ElementType::kFloat32, {1, 1, 6}, {kNaN, 1, kInf, 2, kNaN, kNaN});
  const MaxPoolResult r = reference_max_pool(max_spec({3}, {1}), X);
  // Windows: [NaN 1 inf] [1 inf 2] [inf 2 NaN] [2 NaN NaN]
  EXPECT_TRUE(std::isnan(r.Y.get(0)));
  EXPECT_EQ(r.Y.get(1), kInf);
  EXPECT_TRUE(std::isnan(r.Y.get(2)));
  EXPECT_TRUE(std::isnan(r.Y.get(3)));
  EXPECT_EQ(indices_of(r.Indices), (Ints{0, 2, 4, 4}));
}

TEST(ReferenceMaxPool, AllMinusInfinityWindowGivesMinusInfinity) {
  const HostTensor X = tensor(ElementType::kBFloat16, {1, 1, 3}, {-kInf, -kInf, -kInf});
  const MaxPoolResult r = reference_max_pool(max_spec({2}, {1}, {1, 0}), X);
  EXPECT_EQ(values_of(r.Y), (std::vector<double>{-kInf, -kInf, -kInf}));
  EXPECT_EQ(indices_of(r.Indices), (Ints{0, 0, 1}));
}

TEST(ReferenceMaxPool, WindowInsideThePaddingGivesLowestAndMinusOne) {
  PoolSpec spec = max_spec({2}, {1}, {2, 0});  // the first window covers -2..-1
  for (ElementType type : {ElementType::kFloat16, ElementType::kInt8, ElementType::kUInt8}) {
    const HostTensor X = tensor(type, {1, 1, 2}, {5, 6});
    const MaxPoolResult r = reference_max_pool(spec, X);
    EXPECT_EQ(values_of(r.Y), (std::vector<double>{lowest_value(type), 5, 6})) << type_label(type);
    EXPECT_EQ(indices_of(r.Indices), (Ints{-1, 0, 1}));
  }
  EXPECT_EQ(lowest_value(ElementType::kInt8), -128);
  EXPECT_EQ(lowest_value(ElementType::kUInt8), 0);
  EXPECT_EQ(lowest_value(ElementType::kFloat16), -kInf);
}

TEST(ReferenceMaxPool, Int8PaddingDoesNotContributeZero) {
  const HostTensor X = tensor(ElementType::kInt8, {1, 1, 2, 2}, {-5, -7, -9, -128});
  const MaxPoolResult r = reference_max_pool(max_spec({2, 2}, {1, 1}, {1, 1, 1, 1}), X);
  EXPECT_EQ(values_of(r.Y), (std::vector<double>{-5, -5, -7, -5, -5, -7, -9, -9, -128}));
}

TEST(ReferenceMaxPool, DilatedWindowSkipsTaps) {
  const HostTensor X = tensor(ElementType::kFloat64, {1, 1, 5}, {1, 9, 2, 9, 3});
  PoolSpec spec = max_spec({2});
  spec.dilations = {2};
  const MaxPoolResult r = reference_max_pool(spec, X);
  EXPECT_EQ(values_of(r.Y), (std::vector<double>{2, 9, 3}));
  EXPECT_EQ(indices_of(r.Indices), (Ints{2, 1, 4}));
}

TEST(ReferenceMaxPool, ThreeDimensionalWindow) {
  HostTensor X(ElementType::kUInt8, {1, 1, 2, 2, 3});
  for (int64_t i = 0; i < X.size(); ++i) X.set(i, static_cast<double>((i * 7) % 12));
  // values: 0 7 2 9 4 11 6 1 8 3 10 5
  const MaxPoolResult r = reference_max_pool(max_spec({2, 2, 2}), X);
  EXPECT_EQ(values_of(r.Y), (std::vector<double>{10, 11}));
  EXPECT_EQ(indices_of(r.Indices), (Ints{10, 5}));
}

// in = [1 2 3 4 5], k = 3, s = 2, pads = [1, 0], ceil_mode: windows start at
// -1, 1, 3; the last one has tap 5 beyond both the input and the end pad.
PoolSpec ceil_window_spec() {
  PoolSpec spec = max_spec({3}, {2}, {1, 0});
  spec.ceil_mode = true;
  return spec;
}

TEST(ReferenceAveragePool, ExcludingPadDividesByRealTaps) {
  const HostTensor X = tensor(ElementType::kFloat32, {1, 1, 5}, {1, 2, 3, 4, 5});
  const HostTensor Y = reference_average_pool(ceil_window_spec(), X);
  EXPECT_EQ(Y.type(), ElementType::kFloat64);
  EXPECT_EQ(values_of(Y), (std::vector<double>{1.5, 3, 4.5}));
}

TEST(ReferenceAveragePool, IncludingPadCountsOnlyTapsInsideThePads) {
  const HostTensor X = tensor(ElementType::kFloat32, {1, 1, 5}, {1, 2, 3, 4, 5});
  PoolSpec spec = ceil_window_spec();
  spec.count_include_pad = true;
  // (0+1+2)/3, (2+3+4)/3, (4+5)/2: tap 5 is outside [-1, 5) and not counted.
  EXPECT_EQ(values_of(reference_average_pool(spec, X)), (std::vector<double>{1, 3, 4.5}));
}

TEST(ReferenceAveragePool, IncludingPadIn2DCorners) {
  const HostTensor X = tensor(ElementType::kFloat16, {1, 1, 2, 2}, {4, 8, 12, 16});
  PoolSpec spec = max_spec({2, 2}, {1, 1}, {1, 1, 1, 1});
  spec.count_include_pad = true;
  EXPECT_EQ(values_of(reference_average_pool(spec, X)),
            (std::vector<double>{1, 3, 2, 4, 10, 6, 3, 7, 4}));
}

TEST(ReferenceLpPool, PartialWindowsAreNotRescaled) {
  const HostTensor X = tensor(ElementType::kFloat32, {1, 1, 5}, {1, -2, 3, -4, 5});
  PoolSpec spec = ceil_window_spec();
  spec.p = 2;
  const std::vector<double> y = values_of(reference_lp_pool(spec, X));
  ASSERT_EQ(y.size(), 3u);
  EXPECT_DOUBLE_EQ(y[0], std::sqrt(5.0));
  EXPECT_DOUBLE_EQ(y[1], std::sqrt(29.0));
  EXPECT_DOUBLE_EQ(y[2], std::sqrt(41.0));
  spec.p = 1;
  EXPECT_EQ(values_of(reference_lp_pool(spec, X)), (std::vector<double>{3, 9, 9}));
  spec.p = 3;
  EXPECT_DOUBLE_EQ(reference_lp_pool(spec, X).get(0), std::cbrt(9.0));
}

TEST(ReferenceGlobalPools, ReduceEverySpatialAxisOfRank3) {
  const HostTensor X = tensor(ElementType::kFloat32, {1, 2, 3}, {1, -4, 2, 0, 3, -3});
  EXPECT_EQ(reference_global_max_pool(X).shape(), (Ints{1, 2, 1}));
  EXPECT_EQ(values_of(reference_global_max_pool(X)), (std::vector<double>{2, 3}));
  EXPECT_EQ(values_of(reference_global_average_pool(X)), (std::vector<double>{-1.0 / 3.0, 0}));
  EXPECT_EQ(values_of(reference_global_lp_pool(X, 2)), (std::vector<double>{std::sqrt(21.0), std::sqrt(18.0)}));
  EXPECT_EQ(values_of(reference_global_lp_pool(X, 1)), (std::vector<double>{7, 6}));
}

TEST(ReferenceGlobalPools, ReduceEverySpatialAxisOfRank6) {
  HostTensor X(ElementType::kFloat64, {2, 1, 2, 1, 2, 2});
  for (int64_t i = 0; i < X.size(); ++i) X.set(i, static_cast<double>(i));
  EXPECT_EQ(reference_global_average_pool(X).shape(), (Ints{2, 1, 1, 1, 1, 1}));
  EXPECT_EQ(values_of(reference_global_average_pool(X)), (std::vector<double>{3.5, 11.5}));
  EXPECT_EQ(values_of(reference_global_max_pool(X)), (std::vector<double>{7, 15}));
}

TEST(ReferenceGlobalPools, GlobalMaxPropagatesNan) {
  const HostTensor X = tensor(ElementType::kFloat16, {1, 1, 4}, {1, kNaN, kInf, 2});
  EXPECT_TRUE(std::isnan(reference_global_max_pool(X).get(0)));
}

TEST(ReferencePools, RoundingTheExactResultHappensOnce) {
  const HostTensor X = tensor(ElementType::kFloat16, {1, 1, 3}, {1, 1, 2});
  const HostTensor exact = reference_global_average_pool(X);
  EXPECT_DOUBLE_EQ(exact.get(0), 4.0 / 3.0);
  EXPECT_EQ(exact.converted_to(ElementType::kFloat16).get(0), 1365.0 / 1024.0);  // 0x3D55
}

}  // namespace
}  // namespace onnxpool_test
