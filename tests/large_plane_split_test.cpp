// Planes that one kernel buffer cannot hold run in pieces
// (runtime/execute/large_planes.h): windowed pools cut along the first spatial axis
// with each piece's halo rows, global pools reduce sub-planes and combine
// them. Real such planes take gigabytes (large_tensor_test.cpp); here the
// runtime's buffer limit is lowered through its test hook, per case, to
// between one and three times what one piece needs, so that random
// small cases of every operator, element type and rank run in pieces, with
// pieces' boundaries everywhere, and are checked against the reference
// exactly as the property tests check them (MaxPool and its Indices bit for
// bit). Then the corners: windows wholly in the padding before and after the
// input (written without a kernel), column-major Indices, NaN and signed
// zeros across sub-planes, and a window too large for any piece.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "execute/large_planes.h"
#include "plan/plan.h"
#include "onnxpool/pooling.h"
#include "reference/pool_geometry.h"
#include "support/float_type_info.h"
#include "support/kernel_buffer_limit.h"
#include "support/maxpool_check.h"
#include "support/onnx_attributes.h"
#include "support/pool_check.h"
#include "support/random.h"
#include "support/test_settings.h"

namespace onnxpool_test {
namespace {

using onnxpool::PoolOp;
using onnxpool::detail::calls_run_in_pieces;

constexpr uint64_t kStreamBase = 9300;

int64_t product(const std::vector<int64_t>& v, size_t from) {
  int64_t n = 1;
  for (size_t i = from; i < v.size(); ++i) n *= v[i];
  return n;
}

// A buffer limit under which the case must run in pieces: at least what
// one piece needs (one window's input rows, one output slice, and what a 1D
// window's positions take, 8 bytes each), at most three times that, and
// under the plane's bytes; for a global pool, under one plane's bytes. 0
// where no limit does both (the window needs the whole plane).
int64_t piece_limit(Random& random, PoolOp op, const PoolSpec& spec, const HostTensor& X, bool indices) {
  const std::vector<int64_t>& shape = X.shape();
  const int64_t element = static_cast<int64_t>(bytes_per_element(X.type()));
  if (is_global_pool(op)) {
    const int64_t plane = product(shape, 2) * element;
    return plane > 17 ? random.between(16, plane - 1) : 0;
  }
  const WindowGeometry g = window_geometry(spec, std::vector<int64_t>(shape.begin() + 2, shape.end()));
  if (product(g.output, 0) == 0 || product(g.input, 0) == 0) return 0;
  const int64_t in_slice = product(g.input, 1) * element;
  const int64_t out_slice = product(g.output, 1) * (indices ? 8 : element);
  const int64_t window = g.dilated_kernel(0);
  const int64_t need = std::max({in_slice * std::min(g.input[0], window), out_slice, int64_t{8},
                                 g.rank() == 1 ? 8 * window : int64_t{0}});
  const int64_t plane = std::max(g.input[0] * in_slice, g.output[0] * out_slice);
  if (plane <= need) return 0;
  return random.between(need, std::min(plane - 1, 3 * need));
}

struct PieceCounts {
  int cases = 0, in_pieces = 0;
};

// Whether the planner runs the windowed kernel on the case's own planes: not
// on planes with leading axes folded away (plan/unit_axes.h), nor through the
// global kernels (plan/whole_plane.h, plan/covered_axes.h), whose cases have
// tests of their own. Only then is piece_limit's plane the kernel's.
bool windowed_kernel_on_own_planes(PoolOp op, const onnxpool::Attributes& attrs, const HostTensor& X,
                                   bool with_indices) {
  onnxpool::PoolAttributes attributes;
  if (!onnxpool::PoolAttributes::parse(op, attrs, &attributes)) return false;
  const onnxpool::TensorView x(nullptr, X.type(), X.shape());
  onnxpool::detail::Plan plan;
  if (!onnxpool::detail::plan_call(op, attributes, x, nullptr, nullptr, with_indices,
                                   onnxpool::detail::PlanContext::current(), &plan)) {
    return false;
  }
  return plan.folded_axes == 0 && plan.kernel_op == op && plan.route != onnxpool::detail::Route::kCoveredAxesFirst;
}

// Runs `count` random cases of `op` at `spatial_rank`, each under its own
// limit; fails the test on the first few mismatches.
PieceCounts check_random_cases(PoolOp op, int spatial_rank, int count) {
  PieceCounts counts;
  KernelBufferLimit limit(0);
  const uint64_t stream = kStreamBase + static_cast<uint64_t>(op) * 8 + static_cast<uint64_t>(spatial_rank);
  int failures = 0;
  for (int i = 0; i < count && failures < 3; ++i) {
    Random random(derive_seed(test_seed(), stream + 1000, static_cast<uint64_t>(i)));
    const int64_t before = calls_run_in_pieces();
    testing::AssertionResult result = testing::AssertionSuccess();
    std::string described;
    if (op == PoolOp::kMaxPool) {
      const MaxPoolCase c = batch_case(stream, i, max_pool_types(), {spatial_rank});
      if (!windowed_kernel_on_own_planes(op, c.attributes, c.X, c.with_indices)) continue;
      const int64_t bytes = piece_limit(random, op, c.spec, c.X, c.with_indices);
      if (bytes == 0) continue;
      limit.set(bytes);
      result = library_matches_reference(c);
      described = c.describe() + " under a buffer limit of " + std::to_string(bytes) + " bytes";
    } else {
      const PoolCase c = pool_batch_case(stream, i, op, float_types(), {spatial_rank});
      if (!is_global_pool(op) && !windowed_kernel_on_own_planes(op, c.attributes, c.X, false)) continue;
      const int64_t bytes = piece_limit(random, op, c.spec, c.X, false);
      if (bytes == 0) continue;
      limit.set(bytes);
      result = pool_matches_reference(c);
      described = c.describe() + " under a buffer limit of " + std::to_string(bytes) + " bytes";
    }
    ++counts.cases;
    counts.in_pieces += calls_run_in_pieces() > before ? 1 : 0;
    if (!result) {
      ++failures;
      ADD_FAILURE() << "case " << i << " of stream " << stream << " (seed " << test_seed() << "): " << described
                    << "\n"
                    << result.message();
    }
  }
  return counts;
}

void expect_all_in_pieces(const PieceCounts& counts, PoolOp op, int rank) {
  EXPECT_GE(counts.cases, 10) << onnxpool::op_name(op) << " rank " << rank << ": too few cases can be split";
  EXPECT_EQ(counts.in_pieces, counts.cases)
      << onnxpool::op_name(op) << " rank " << rank << ": cases that ran whole under a limit below their planes";
}

class RandomCasesInPieces : public testing::TestWithParam<PoolOp> {};

TEST_P(RandomCasesInPieces, MatchTheReference) {
  const PoolOp op = GetParam();
  const int ranks = is_global_pool(op) ? 4 : 3;
  for (int rank = 1; rank <= ranks; ++rank) {
    expect_all_in_pieces(check_random_cases(op, rank, scaled_case_count(150)), op, rank);
  }
}

INSTANTIATE_TEST_SUITE_P(EveryOperator, RandomCasesInPieces,
                         testing::Values(PoolOp::kMaxPool, PoolOp::kAveragePool, PoolOp::kLpPool,
                                         PoolOp::kGlobalMaxPool, PoolOp::kGlobalAveragePool, PoolOp::kGlobalLpPool),
                         [](const testing::TestParamInfo<PoolOp>& info) {
                           return std::string(onnxpool::op_name(info.param));
                         });

HostTensor ramp(ElementType type, std::vector<int64_t> shape) {
  HostTensor X(type, std::move(shape));
  // Distinct values in a zigzag, so every window has one largest tap that
  // is not at a fixed place in it.
  for (int64_t i = 0; i < X.size(); ++i) X.set(i, static_cast<double>((i * 37) % 101) - 50.0);
  return X;
}

// Pads past the kernel: the first and last output rows' windows lie wholly
// in the padding along the first axis, and are written without a kernel.
TEST(LargePlaneSplit, WindowsWhollyInThePaddingAroundThePieces) {
  KernelBufferLimit limit(2 * 5 * 8);  // two input slices of 5 elements, at most 8 bytes each
  const HostTensor X = ramp(ElementType::kFloat32, {2, 3, 7, 5});
  const PoolSpec window = window_spec({2, 2}, {1, 2}, {5, 0, 6, 1}, /*ceil_mode=*/true);
  for (bool indices : {false, true}) {
    for (int64_t order : {0, 1}) {
      PoolSpec spec = window;
      spec.storage_order = order;
      const int64_t before = calls_run_in_pieces();
      EXPECT_TRUE(library_matches_reference(make_max_pool_case(spec, X, indices)))
          << "Indices " << indices << " storage_order " << order;
      EXPECT_GT(calls_run_in_pieces(), before);
    }
  }
  for (bool count_include_pad : {false, true}) {
    PoolSpec spec = window;
    spec.count_include_pad = count_include_pad;
    const int64_t before = calls_run_in_pieces();
    EXPECT_TRUE(pool_matches_reference(make_pool_case(PoolOp::kAveragePool, spec, X)))
        << "count_include_pad " << count_include_pad;
    EXPECT_GT(calls_run_in_pieces(), before);
  }
  const int64_t before = calls_run_in_pieces();
  EXPECT_TRUE(pool_matches_reference(make_pool_case(PoolOp::kLpPool, lp_spec({2, 2}, {1, 2}, {5, 0, 6, 1}, 3), X)));
  EXPECT_GT(calls_run_in_pieces(), before);
}

// storage_order = 1 numbers positions with the first spatial axis fastest:
// a piece's positions must be renumbered with the plane's extent.
TEST(LargePlaneSplit, ColumnMajorIndicesOfEveryRank) {
  KernelBufferLimit limit(0);
  const std::vector<std::vector<int64_t>> shapes = {{2, 2, 23}, {1, 3, 11, 6}, {2, 1, 9, 4, 3}};
  for (const std::vector<int64_t>& shape : shapes) {
    const size_t rank = shape.size() - 2;
    const HostTensor X = ramp(ElementType::kFloat32, shape);
    PoolSpec spec = window_spec(std::vector<int64_t>(rank, 3), std::vector<int64_t>(rank, 2),
                                std::vector<int64_t>(2 * rank, 1));
    spec.storage_order = 1;
    // Three input rows of the first axis (and a 1D window's positions).
    limit.set(std::max<int64_t>(3 * product(shape, 3) * 8, 8 * 3));
    const int64_t before = calls_run_in_pieces();
    EXPECT_TRUE(library_matches_reference(make_max_pool_case(spec, X, /*with_indices=*/true))) << rank << "D";
    EXPECT_GT(calls_run_in_pieces(), before) << rank << "D";
  }
}

// The partial maxima of the sub-planes go through the same kernel: a NaN
// anywhere wins, and +0 beats -0 whichever sub-plane holds it, bit for bit
// as the kernel gives them over the whole plane.
TEST(LargePlaneSplit, GlobalMaxOfSubPlanesKeepsNaNAndSignedZeros) {
  HostTensor X(ElementType::kFloat32, {1, 3, 1000});
  for (int64_t i = 0; i < X.size(); ++i) X.set(i, -0.0);
  X.set(1000 + 777, 0.0);                                     // plane 1: one +0 among -0
  X.set(2000 + 3, std::numeric_limits<double>::quiet_NaN());  // plane 2: one NaN among -0
  onnxpool::PoolAttributes attributes;
  ASSERT_TRUE(onnxpool::PoolAttributes::parse(PoolOp::kGlobalMaxPool, {}, &attributes));
  const onnxpool::TensorView x_view(X.data(), X.type(), X.shape());
  auto run = [&](int64_t limit_bytes) {
    KernelBufferLimit limit(limit_bytes);
    std::vector<uint32_t> y(3, 0x12345678u);
    const onnxpool::Status s =
        onnxpool::global_max_pool(attributes, x_view, onnxpool::TensorView(y.data(), ElementType::kFloat32, {1, 3, 1}));
    EXPECT_TRUE(s) << s.message();
    return y;
  };
  const std::vector<uint32_t> whole = run(0);
  const int64_t before = calls_run_in_pieces();
  const std::vector<uint32_t> pieces = run(64);  // sub-planes of 8 elements
  EXPECT_GT(calls_run_in_pieces(), before);
  EXPECT_EQ(pieces, whole);
  EXPECT_EQ(whole[0], 0x80000000u);  // -0
  EXPECT_EQ(whole[1], 0x00000000u);  // +0
  EXPECT_EQ(whole[2] & 0x7FC00000u, 0x7FC00000u) << std::hex << whole[2];  // a quiet NaN
}

// A window whose rows alone pass the limit cannot be split between windows:
// kUnsupported, naming the attributes, with Y untouched.
TEST(LargePlaneSplit, AWindowLargerThanAnyPieceIsUnsupported) {
  KernelBufferLimit limit(64);  // four input slices of 4 float32
  const HostTensor X = ramp(ElementType::kFloat32, {1, 1, 8, 4});
  onnxpool::PoolAttributes attributes;
  ASSERT_TRUE(onnxpool::PoolAttributes::parse(PoolOp::kMaxPool, max_pool_attributes(window_spec({5, 1}, {1, 1})),
                                              &attributes));
  std::vector<float> y(4 * 4, 123.0f);
  const onnxpool::TensorView x_view(X.data(), X.type(), X.shape());
  const onnxpool::TensorView y_view(y.data(), ElementType::kFloat32, {1, 1, 4, 4});
  const onnxpool::Status s = onnxpool::max_pool(attributes, x_view, y_view, nullptr);
  EXPECT_EQ(s.code(), onnxpool::StatusCode::kUnsupported) << s.message();
  EXPECT_NE(s.message().find("'kernel_shape'"), std::string::npos) << s.message();
  EXPECT_TRUE(std::all_of(y.begin(), y.end(), [](float v) { return v == 123.0f; }));
}

// The first spatial axis may pass 2^31 - 1 (it is split); the others may not.
TEST(LargePlaneSplit, OnlyTheFirstAxisMayPassInt32) {
  onnxpool::PoolAttributes attributes;
  ASSERT_TRUE(onnxpool::PoolAttributes::parse(PoolOp::kMaxPool, max_pool_attributes(window_spec({3, 1}, {2, 1})),
                                              &attributes));
  std::vector<int64_t> y_shape;
  const int64_t long_axis = (int64_t{1} << 31) + 7;
  ASSERT_TRUE(onnxpool::infer_output_shape(attributes, {1, 1, long_axis, 2}, &y_shape));
  EXPECT_EQ(y_shape, (std::vector<int64_t>{1, 1, (long_axis - 3) / 2 + 1, 2}));
  const onnxpool::Status s = onnxpool::infer_output_shape(attributes, {1, 1, 2, long_axis}, &y_shape);
  EXPECT_EQ(s.code(), onnxpool::StatusCode::kUnsupported);
  EXPECT_NE(s.message().find("2^31"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace onnxpool_test
