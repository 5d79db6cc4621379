// The global-pool corner cases of docs/semantics.md and pooling.h:
// GlobalMaxPool's NaN and +-0 policy (max_pool's), every rank from 3 to 6
// with several planes, planes of one element and of odd sizes (49, 1000+),
// NaN and infinities in the sums, GlobalLpPool's default p, and 16-bit floats
// accumulated in float32.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "support/float_type_info.h"
#include "support/literal_tensors.h"
#include "support/pool_check.h"
#include "support/pool_expectation.h"
#include "support/test_settings.h"
#include "support/value_fills.h"

namespace onnxpool_test {
namespace {

using onnxpool::PoolOp;
using Ints = std::vector<int64_t>;
constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

// Runs the library; fails the test when it refuses the node.
HostTensor run(PoolOp op, const HostTensor& X, int64_t p = 2) {
  HostTensor Y;
  const onnxpool::Status status = library_pool(make_pool_case(op, p_only(p), X), &Y);
  EXPECT_TRUE(status.is_ok()) << onnxpool::op_name(op) << ": " << status.message();
  return Y;
}

// One plane of `size` small negative values (so a max that starts from 0
// would show) with `value` at each of `positions`.
HostTensor plane_with(ElementType type, int64_t size, const Ints& positions, double value) {
  HostTensor X(type, {1, 1, size});
  for (int64_t i = 0; i < size; ++i) X.set(i, -1.0 - static_cast<double>(i % 5));
  for (int64_t at : positions) X.set(at, value);
  return X;
}

TEST(GlobalMaxPoolCorners, NanAnywhereInThePlaneGivesNan) {
  for (ElementType type : float_types()) {
    for (int64_t size : {1, 2, 49, 1031}) {
      for (int64_t at : {int64_t{0}, size / 2, size - 1}) {
        const HostTensor Y = run(PoolOp::kGlobalMaxPool, plane_with(type, size, {at}, kNaN));
        EXPECT_TRUE(Y.is_nan(0)) << type_label(type) << " plane " << size << ", NaN at " << at << ": " << Y.get(0);
      }
      if (size > 1) {
        // NaN before and after +inf: NaN wins either way.
        const HostTensor nan_first = plane_with(type, size, {0}, kNaN);
        HostTensor both = nan_first;
        both.set(size - 1, kInf);
        EXPECT_TRUE(run(PoolOp::kGlobalMaxPool, both).is_nan(0)) << type_label(type) << " plane " << size;
        both.set(0, kInf);
        both.set(size - 1, kNaN);
        EXPECT_TRUE(run(PoolOp::kGlobalMaxPool, both).is_nan(0)) << type_label(type) << " plane " << size;
      }
    }
  }
}

TEST(GlobalMaxPoolCorners, MaxOfNegativeValuesAndOfMinusInfinity) {
  for (ElementType type : float_types()) {
    for (int64_t size : {1, 49, 1031}) {
      const HostTensor X = plane_with(type, size, {size - 1}, -0.5);
      EXPECT_TRUE(same_values({-0.5}, values_of(run(PoolOp::kGlobalMaxPool, X))))
          << type_label(type) << " plane " << size;
      HostTensor all_minus_infinity(type, {1, 1, size});
      for (int64_t i = 0; i < size; ++i) all_minus_infinity.set(i, -kInf);
      EXPECT_TRUE(same_values({-kInf}, values_of(run(PoolOp::kGlobalMaxPool, all_minus_infinity))))
          << type_label(type) << " plane " << size;
    }
  }
}

// max_pool's order: +0 > -0, so a plane holding both gives +0 wherever they are.
TEST(GlobalMaxPoolCorners, PlusZeroIsAboveMinusZero) {
  for (ElementType type : float_types()) {
    struct Plane {
      Values values;
      bool negative_result;
    };
    const Plane planes[] = {
        {{-0.0, 0.0}, false}, {{0.0, -0.0}, false}, {{-0.0, -0.0}, true}, {{-0.0, -1.0, -kInf}, true}, {{-3.0, -0.0}, true},
    };
    for (const Plane& plane : planes) {
      const HostTensor Y = run(PoolOp::kGlobalMaxPool, tensor(type, {1, 1, static_cast<int64_t>(plane.values.size())}, plane.values));
      EXPECT_EQ(Y.get(0), 0.0) << type_label(type);
      EXPECT_EQ(std::signbit(Y.get(0)), plane.negative_result) << type_label(type) << " plane of "
                                                               << plane.values.size();
    }
    // Larger planes of -0 with one +0 at a vector tail, in the body, first.
    for (int64_t size : {49, 1031}) {
      for (int64_t at : {int64_t{0}, size / 2, size - 1}) {
        HostTensor X(type, {1, 1, size});
        for (int64_t i = 0; i < size; ++i) X.set(i, -0.0);
        X.set(at, 0.0);
        const HostTensor Y = run(PoolOp::kGlobalMaxPool, X);
        EXPECT_TRUE(Y.get(0) == 0.0 && !std::signbit(Y.get(0)))
            << type_label(type) << " plane " << size << ", +0 at " << at << ": got " << Y.get(0)
            << (std::signbit(Y.get(0)) ? " (negative)" : "");
      }
    }
  }
}

// Sums start from -0.0 (README, "AveragePool, LpPool and the global summing
// pools"): a plane of -0 averages to -0, and one +0 anywhere makes it +0.
// Planes of 49 and 196 elements take the unrolled copies, 16 planes the
// vectors-of-planes path.
TEST(GlobalAveragePoolCorners, PlaneOfMinusZeroAveragesToMinusZero) {
  for (ElementType type : float_types()) {
    for (int64_t planes : {1, 16}) {
      for (int64_t size : {1, 2, 49, 196, 1031}) {
        HostTensor X(type, {1, planes, size});
        for (int64_t i = 0; i < X.size(); ++i) X.set(i, -0.0);
        const int64_t plus_zero_plane = planes > 1 ? planes - 1 : -1;  // none in a lone plane
        if (plus_zero_plane >= 0) X.set(plus_zero_plane * size + size / 2, 0.0);
        const HostTensor Y = run(PoolOp::kGlobalAveragePool, X);
        for (int64_t plane = 0; plane < planes; ++plane) {
          const bool expect_negative = plane != plus_zero_plane;
          EXPECT_TRUE(Y.get(plane) == 0.0 && std::signbit(Y.get(plane)) == expect_negative)
              << type_label(type) << " " << planes << " planes of " << size << ", plane " << plane << ": got "
              << Y.get(plane) << (std::signbit(Y.get(plane)) ? " (negative)" : "");
        }
      }
    }
  }
}

// The shapes of every rank, with N * C > 1 and planes of 1, 49 and 1000+ elements.
const std::vector<Ints> kShapes{
    {2, 3, 1},          {3, 2, 49},        {2, 2, 1031},         // rank 3
    {2, 3, 1, 1},       {2, 3, 7, 7},      {1, 3, 33, 31},       // rank 4
    {2, 2, 1, 1, 1},    {2, 2, 3, 5, 7},   {2, 1, 10, 10, 11},   // rank 5
    {2, 3, 1, 1, 1, 1}, {2, 2, 2, 3, 1, 5}, {1, 2, 4, 4, 4, 17},  // rank 6
    // Past the six spatial axes the runtime's geometry holds in place
    // (runtime/platform/inline_vector.h): its lists move to the heap.
    {2, 2, 1, 2, 1, 3, 1, 2, 2},            // rank 9
    {1, 3, 2, 1, 2, 1, 2, 1, 2, 3},         // rank 10
};

TEST(GlobalPoolCorners, EveryRankFromThreeToTen) {
  uint64_t index = 0;
  for (const Ints& shape : kShapes) {
    for (ElementType type : float_types()) {
      for (PoolOp op : {PoolOp::kGlobalMaxPool, PoolOp::kGlobalAveragePool, PoolOp::kGlobalLpPool}) {
        Random random(derive_seed(test_seed(), 8700, index++));
        HostTensor X(type, shape);
        PoolSpec spec = p_only(op == PoolOp::kGlobalLpPool ? random.between(1, 4) : 2);
        if (op == PoolOp::kGlobalMaxPool) {
          fill_with_ties(random, &X, 0.0);
        } else {
          // Reals in [-4, 4] with eight fractional bits.
          for (int64_t i = 0; i < X.size(); ++i) X.set(i, static_cast<double>(random.between(-1024, 1024)) / 256);
        }
        const PoolCase c = make_pool_case(op, spec, std::move(X));
        EXPECT_TRUE(pool_matches_reference(c)) << c.describe();
      }
    }
  }
}

TEST(GlobalPoolCorners, NanAndInfinitiesInTheSums) {
  for (ElementType type : float_types()) {
    // Planes: [1 NaN 2] [inf 1 2] [inf -inf 0] [-inf 1 2] [NaN inf 1]
    const HostTensor X = tensor(type, {1, 5, 3}, {1, kNaN, 2, kInf, 1, 2, kInf, -kInf, 0, -kInf, 1, 2, kNaN, kInf, 1});
    EXPECT_TRUE(same_values({kNaN, kInf, kNaN, -kInf, kNaN}, values_of(run(PoolOp::kGlobalAveragePool, X))))
        << type_label(type);
    EXPECT_TRUE(same_values({kNaN, kInf, kInf, kInf, kNaN}, values_of(run(PoolOp::kGlobalLpPool, X, 2))))
        << type_label(type);
  }
}

TEST(GlobalPoolCorners, GlobalLpPoolDefaultsToPTwo) {
  onnxpool::PoolAttributes attributes;
  const onnxpool::Status status = onnxpool::PoolAttributes::parse(PoolOp::kGlobalLpPool, onnxpool::Attributes(), &attributes);
  ASSERT_TRUE(status.is_ok()) << status.message();
  EXPECT_EQ(attributes.p, 2);
  for (ElementType type : float_types()) {
    // make_pool_case leaves p = 2 out of the attributes: 3-4-5 and 5-12-13.
    EXPECT_TRUE(close_to({5, 13}, 2, run(PoolOp::kGlobalLpPool, tensor(type, {1, 2, 2}, {3, -4, 12, 5}))))
        << type_label(type);
  }
}

// pooling.h: 16-bit floats accumulate in float32 (see value_fills.h for the probe).
TEST(GlobalPoolCorners, SixteenBitTypesAccumulateInFloat32) {
  for (ElementType type : {ElementType::kFloat16, ElementType::kBFloat16}) {
    const double step = accumulation_probe_step(type);
    for (const Ints& shape : {Ints{1, 2, 4096}, Ints{2, 1, 64, 64}, Ints{1, 2, 16, 16, 16}, Ints{1, 1, 8, 8, 8, 8}}) {
      Random random(derive_seed(test_seed(), 8710, shape.size()));
      HostTensor X(type, shape);
      fill_accumulation_probe(random, &X);
      const size_t planes = static_cast<size_t>(shape[0] * shape[1]);
      EXPECT_TRUE(same_values(Values(planes, 1.0 + step), values_of(run(PoolOp::kGlobalAveragePool, X))))
          << "GlobalAveragePool " << type_label(type) << shape_to_string(shape);
      EXPECT_TRUE(same_values(Values(planes, 4096 * (1.0 + step)), values_of(run(PoolOp::kGlobalLpPool, X, 1))))
          << "GlobalLpPool p=1 " << type_label(type) << shape_to_string(shape);
    }
  }
}

}  // namespace
}  // namespace onnxpool_test
