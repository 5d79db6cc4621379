// A call's cost is bounded by the taps inside X, not by kernel_shape and
// pads (runtime/execute/window_segments.h). The cost is read from the runtime's
// count of the window taps its kernels evaluate, never from a clock: per
// spatial axis, each output may cost at most 4 x (its taps inside X + 1),
// so a call costs at most 4^rank x planes x prod over axes of
// (sum over the axis's outputs of (taps inside X + 1)).
//   - Random nodes whose pads and kernels dwarf their inputs, of every
//     windowed operator, element type and rank, made to take segments
//     wherever a plan exists, against the reference (MaxPool and its
//     Indices bit for bit), and within that bound.
//   - The choice itself: ordinary windows stay one call, windows mostly of
//     padding take segments, whatever the threshold.
//   - Nodes that one kernel call would take 10^12 taps for, at the real
//     threshold: they finish, within the bound, and match a check that
//     visits only each window's taps inside X.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "execute/kernel_launch.h"
#include "onnxpool/pooling.h"
#include "reference/pool_geometry.h"
#include "support/float_type_info.h"
#include "support/forced_segments.h"
#include "support/maxpool_check.h"
#include "support/onnx_attributes.h"
#include "support/pool_check.h"
#include "support/random.h"
#include "support/test_settings.h"
#include "support/value_fills.h"
#include "support/window_cost.h"
#include "execute/window_segments.h"

namespace onnxpool_test {
namespace {

using onnxpool::PoolOp;
using onnxpool::detail::calls_run_in_segments;
using onnxpool::detail::set_segments_for_testing;
using onnxpool::detail::window_taps_evaluated;
using Ints = std::vector<int64_t>;

constexpr uint64_t kStream = 9700;

// The positions inside X of the taps of the window at output o on axis a,
// found without visiting the kernel's other taps (it may be huge).
Ints taps_inside(const WindowGeometry& g, size_t a, int64_t o) {
  const __int128 start = __int128{o} * g.strides[a] - g.pad_begin[a], d = g.dilations[a];
  const __int128 first = start >= 0 ? 0 : (-start + d - 1) / d;
  Ints positions;
  for (__int128 j = first; j < g.kernel[a]; ++j) {
    const __int128 x = start + j * d;
    if (x >= g.input[a]) break;
    positions.push_back(static_cast<int64_t>(x));
  }
  return positions;
}

// Valid windows that reach far into the padding: kernels and pads up to
// tens of times the input's extent, dilations and strides up to 7 (13 for
// a dilation now and then), both auto_pad SAME forms, ceil_mode.
PoolSpec padding_heavy_spec(Random& random, int rank, Ints* spatial) {
  const int64_t most_kernel = rank == 1 ? 400 : rank == 2 ? 40 : 12;
  PoolSpec spec;
  spec.auto_pad = random.pick(std::vector<std::string>{"NOTSET", "NOTSET", "NOTSET", "SAME_UPPER", "SAME_LOWER"});
  spec.ceil_mode = random.chance(0.4);
  Ints begin, end;
  for (int a = 0; a < rank; ++a) {
    const int64_t input = random.between(1, rank == 1 ? 12 : rank == 2 ? 7 : 4);
    const int64_t kernel = random.between(1, most_kernel);
    const int64_t dilation = random.chance(0.6) ? 1 : random.chance(0.8) ? random.between(2, 7) : 13;
    const int64_t stride = random.chance(0.5) ? 1 : random.between(2, 7);
    const int64_t window = (kernel - 1) * dilation + 1;
    // Enough padding for at least one window, often far more.
    const int64_t need = std::max<int64_t>(0, window - input);
    const int64_t b = random.between(0, need + random.between(0, 2 * window));
    const int64_t e = std::max<int64_t>(need - b, 0) + random.between(0, window);
    spatial->push_back(input);
    spec.kernel_shape.push_back(kernel);
    spec.strides.push_back(stride);
    spec.dilations.push_back(dilation);
    begin.push_back(b);
    end.push_back(e);
  }
  if (spec.auto_pad == "NOTSET") {
    spec.pads = begin;
    spec.pads.insert(spec.pads.end(), end.begin(), end.end());
  }
  return spec;
}

struct SweepCounts {
  int cases = 0, in_segments = 0;
};

SweepCounts check_random_cases(PoolOp op, int rank, int count) {
  SweepCounts counts;
  const SegmentsWheneverPlanned forced;
  const uint64_t stream = kStream + static_cast<uint64_t>(op) * 8 + static_cast<uint64_t>(rank);
  int failures = 0;
  for (int i = 0; i < count && failures < 3; ++i) {
    Random random(derive_seed(test_seed(), stream, static_cast<uint64_t>(i)));
    Ints spatial;
    PoolSpec spec = padding_heavy_spec(random, rank, &spatial);
    Ints shape = {random.between(1, 2), random.between(1, 3)};
    shape.insert(shape.end(), spatial.begin(), spatial.end());
    WindowGeometry g;
    try {
      g = window_geometry(spec, spatial);
    } catch (const std::invalid_argument&) {
      continue;  // the reference's oracle says the node is not valid ONNX
    }
    int64_t outputs = 1, window_taps = 1;
    for (size_t a = 0; a < g.rank(); ++a) {
      outputs *= g.output[a];
      window_taps *= g.kernel[a];
    }
    // The reference visits every tap, padding included.
    if (outputs == 0 || outputs > 200000 || outputs * window_taps > 20000000) continue;
    testing::AssertionResult result = testing::AssertionSuccess();
    std::string described;
    int64_t taps = 0;
    bool segmented = false;
    // One library run for the cost, then the check against the reference
    // (which runs the node again).
    const auto measure = [&](const auto& run) {
      const int64_t before_calls = calls_run_in_segments(), before_taps = window_taps_evaluated();
      const onnxpool::Status s = run();
      taps = window_taps_evaluated() - before_taps;
      segmented = calls_run_in_segments() > before_calls;
      return s;
    };
    if (op == PoolOp::kMaxPool) {
      spec.storage_order = random.chance(0.5) ? 1 : 0;
      HostTensor X(random.pick(max_pool_types()), shape);
      fill_with_ties(random, &X, 0.02);
      const MaxPoolCase c = make_max_pool_case(spec, X, random.chance(0.6));
      MaxPoolResult out;
      const onnxpool::Status s = measure([&] { return library_max_pool(c, &out); });
      result = s ? library_matches_reference(c) : testing::AssertionFailure() << s.message();
      described = c.describe();
    } else {
      spec.count_include_pad = random.chance(0.5);
      spec.p = random.pick(Ints{1, 2, 3});
      HostTensor X(random.pick(float_types()), shape);
      const PoolCase c = make_filled_sum_pool_case(random, op, spec, X);
      HostTensor Y;
      const onnxpool::Status s = measure([&] { return library_pool(c, &Y); });
      result = s ? pool_matches_reference(c) : testing::AssertionFailure() << s.message();
      described = c.describe();
    }
    ++counts.cases;
    counts.in_segments += segmented ? 1 : 0;
    const double bound = taps_inside_bound(g, shape[0] * shape[1]);
    if (!result || (segmented && static_cast<double>(taps) > bound)) {
      ++failures;
      ADD_FAILURE() << "case " << i << " of stream " << stream << " (seed " << test_seed() << "): " << described
                    << "\n"
                    << (result ? "taps " + std::to_string(taps) + " over the bound " + std::to_string(bound)
                               : std::string(result.message()));
    }
  }
  return counts;
}

class PaddingHeavyRandomCases : public testing::TestWithParam<PoolOp> {};

TEST_P(PaddingHeavyRandomCases, MatchTheReferenceWithinTheTapBound) {
  const PoolOp op = GetParam();
  for (int rank = 1; rank <= 3; ++rank) {
    const SweepCounts counts = check_random_cases(op, rank, scaled_case_count(80));
    EXPECT_GE(counts.cases, 40) << onnxpool::op_name(op) << " rank " << rank << ": too few valid cases";
    // Only plans past the kernels' int32 extents are refused; none of these comes near.
    EXPECT_EQ(counts.in_segments, counts.cases) << onnxpool::op_name(op) << " rank " << rank;
  }
}

INSTANTIATE_TEST_SUITE_P(EveryWindowedOperator, PaddingHeavyRandomCases,
                         testing::Values(PoolOp::kMaxPool, PoolOp::kAveragePool, PoolOp::kLpPool),
                         [](const testing::TestParamInfo<PoolOp>& info) {
                           return std::string(onnxpool::op_name(info.param));
                         });

// With no threshold, the cost comparison alone decides.
struct NoThreshold {
  NoThreshold() { set_segments_for_testing(0, false); }
  ~NoThreshold() { set_segments_for_testing(-1, false); }
};

bool takes_segments(const Ints& shape, const PoolSpec& spec) {
  HostTensor X(ElementType::kFloat32, shape);
  Random random(derive_seed(test_seed(), kStream, 1000));
  fill_with_ties(random, &X, 0.0);
  const MaxPoolCase c = make_max_pool_case(spec, X, false);
  const int64_t before = calls_run_in_segments();
  EXPECT_TRUE(library_matches_reference(c)) << c.describe();
  return calls_run_in_segments() > before;
}

TEST(SegmentChoice, OrdinaryWindowsStayOneCall) {
  const NoThreshold no_threshold;
  PoolSpec spec;
  spec.kernel_shape = {3, 3};
  spec.pads = {1, 1, 1, 1};
  EXPECT_FALSE(takes_segments({1, 8, 56, 56}, spec));
  spec.kernel_shape = {7, 7};
  spec.pads = {3, 3, 3, 3};
  spec.strides = {2, 2};
  EXPECT_FALSE(takes_segments({2, 3, 64, 64}, spec));
  // Strides past the kernel: the row buffers hold four entries per output,
  // and segments would hold as many.
  spec.kernel_shape = {1, 1};
  spec.pads = {0, 0, 0, 0};
  spec.strides = {4, 4};
  EXPECT_FALSE(takes_segments({1, 64, 256, 256}, spec));
}

TEST(SegmentChoice, WindowsMostlyOfPaddingTakeSegments) {
  const NoThreshold no_threshold;
  PoolSpec spec;
  spec.kernel_shape = {300};
  spec.pads = {299, 299};
  EXPECT_TRUE(takes_segments({1, 4, 10}, spec));
  spec.kernel_shape = {40, 40};
  spec.pads = {39, 39, 39, 39};
  EXPECT_TRUE(takes_segments({1, 2, 6, 5}, spec));
}

// 33 outputs of one tap each, 32 of them 2^20 apart in the padding: the
// kernel's row buffer would span 2^25 positions that no window reads.
TEST(SegmentChoice, RowBuffersMostlyOfPaddingTakeSegments) {
  PoolSpec spec;
  spec.kernel_shape = {1, 1};
  spec.strides = {1, 1 << 20};
  spec.pads = {0, 0, 0, 1 << 25};
  EXPECT_TRUE(takes_segments({1, 1, 1, 8}, spec));  // at the real threshold of 2^24
}

// --- Nodes one kernel call would take 10^12 taps for ----------------------

HostTensor zigzag(Ints shape) {
  HostTensor X(ElementType::kFloat32, std::move(shape));
  for (int64_t i = 0; i < X.size(); ++i) X.set(i, static_cast<double>((i * 37) % 101) - 50.0 + 0.25 * (i % 3));
  return X;
}

struct HugeNode {
  Ints shape, kernel, strides, dilations, pads;
};

PoolSpec spec_of(const HugeNode& n) {
  PoolSpec spec;
  spec.kernel_shape = n.kernel;
  spec.strides = n.strides;
  spec.dilations = n.dilations;
  spec.pads = n.pads;
  return spec;
}

std::vector<HugeNode> huge_nodes() {
  return {
      // 8 elements, kernel and pads of a million: 10^6 outputs of up to 8 taps.
      {{1, 2, 8}, {1000000}, {1}, {1}, {999999, 999999}},
      // Dilated and strided: windows covering X repeat every 3 outputs.
      {{2, 1, 9}, {300000}, {2}, {3}, {1500000, 1500001}},
      // 2D, 1.5 million outputs.
      {{1, 1, 6, 5}, {1500, 1000}, {1, 1}, {1, 1}, {1499, 999, 1499, 999}},
      // 3D.
      {{1, 2, 3, 4, 2}, {120, 100, 90}, {1, 2, 1}, {1, 1, 2}, {119, 99, 178, 119, 100, 178}},
  };
}

Ints output_shape_of(const HugeNode& n, const WindowGeometry& g) {
  Ints shape = {n.shape[0], n.shape[1]};
  shape.insert(shape.end(), g.output.begin(), g.output.end());
  return shape;
}

// Every output of Y (and Indices) from its window's taps inside X alone.
testing::AssertionResult matches_clipped_windows(PoolOp op, const PoolSpec& spec, const WindowGeometry& g,
                                                 const HostTensor& X, const HostTensor& Y, const HostTensor* Indices) {
  const size_t rank = g.rank();
  std::vector<std::vector<Ints>> taps(rank);
  for (size_t a = 0; a < rank; ++a) {
    for (int64_t o = 0; o < g.output[a]; ++o) taps[a].push_back(taps_inside(g, a, o));
  }
  int64_t plane_in = 1, plane_out = 1;
  for (size_t a = 0; a < rank; ++a) {
    plane_in *= g.input[a];
    plane_out *= g.output[a];
  }
  const int64_t planes = X.shape()[0] * X.shape()[1];
  Ints at(rank, 0), tap(rank, 0);
  for (int64_t plane = 0; plane < planes; ++plane) {
    for (int64_t out = 0; out < plane_out; ++out) {
      for (int64_t rest = out, a = static_cast<int64_t>(rank) - 1; a >= 0; --a) {
        at[a] = rest % g.output[a];
        rest /= g.output[a];
      }
      double best = -std::numeric_limits<double>::infinity(), sum = 0;
      int64_t best_at = -1, inside = 1, counted = 1;
      for (size_t a = 0; a < rank; ++a) {
        inside *= static_cast<int64_t>(taps[a][at[a]].size());
        counted *= taps_within(g, a, at[a], -__int128{g.pad_begin[a]}, __int128{g.input[a]} + g.pad_end[a]);
      }
      // Row-major over the window's taps inside X.
      for (int64_t t = 0; t < inside; ++t) {
        int64_t position = 0, column = 0, scale = 1;
        for (int64_t rest = t, a = static_cast<int64_t>(rank) - 1; a >= 0; --a) {
          const Ints& axis = taps[a][at[a]];
          tap[a] = axis[rest % static_cast<int64_t>(axis.size())];
          rest /= static_cast<int64_t>(axis.size());
        }
        for (size_t a = 0; a < rank; ++a) position = position * g.input[a] + tap[a];
        for (size_t a = 0; a < rank; ++a) {
          column += tap[a] * scale;
          scale *= g.input[a];
        }
        const double v = X.get(plane * plane_in + position);
        if (v > best) {
          best = v;
          best_at = plane * plane_in + (spec.storage_order == 1 ? column : position);
        }
        sum += op == PoolOp::kLpPool ? v * v : v;
      }
      const int64_t i = plane * plane_out + out;
      double expected = best;
      if (op == PoolOp::kAveragePool) {
        expected = spec.count_include_pad ? sum / static_cast<double>(counted)
                   : inside > 0           ? sum / static_cast<double>(inside)
                                          : std::nan("");
      }
      if (op == PoolOp::kLpPool) expected = std::sqrt(sum);
      const double got = Y.get(i);
      const bool same = std::isnan(expected) ? std::isnan(got)
                                             : got == expected || std::fabs(got - expected) <= 1e-5 * std::fabs(expected) + 1e-6;
      if (!same) {
        return testing::AssertionFailure() << "output " << i << ": " << got << ", expected " << expected;
      }
      if (Indices != nullptr && Indices->get_int64(i) != best_at) {
        return testing::AssertionFailure() << "Indices " << i << ": " << Indices->get_int64(i) << ", expected "
                                           << best_at;
      }
    }
  }
  return testing::AssertionSuccess();
}

struct HugeRun {
  PoolOp op;
  bool count_include_pad = false;
  bool indices = false;
  int64_t storage_order = 0;
};

void run_huge(const HugeNode& node, const HugeRun& run) {
  PoolSpec spec = spec_of(node);
  spec.count_include_pad = run.count_include_pad;
  spec.storage_order = run.storage_order;
  spec.p = 2;
  const WindowGeometry g = window_geometry(spec, Ints(node.shape.begin() + 2, node.shape.end()));
  const HostTensor X = zigzag(node.shape);
  HostTensor Y(ElementType::kFloat32, output_shape_of(node, g)), Indices(ElementType::kInt64, Y.shape());
  onnxpool::PoolAttributes attributes;
  ASSERT_TRUE(onnxpool::PoolAttributes::parse(run.op, onnx_attributes(run.op, spec), &attributes));
  const onnxpool::TensorView x(X.data(), X.type(), X.shape()), y(Y.data(), Y.type(), Y.shape());
  const onnxpool::TensorView indices(Indices.data(), Indices.type(), Indices.shape());
  const int64_t before_calls = calls_run_in_segments(), before_taps = window_taps_evaluated();
  onnxpool::Status s = run.op == PoolOp::kMaxPool ? onnxpool::max_pool(attributes, x, y, run.indices ? &indices : nullptr)
                       : run.op == PoolOp::kAveragePool ? onnxpool::average_pool(attributes, x, y)
                                                        : onnxpool::lp_pool(attributes, x, y);
  ASSERT_TRUE(s) << s.message();
  EXPECT_GT(calls_run_in_segments(), before_calls);
  const double taps = static_cast<double>(window_taps_evaluated() - before_taps);
  EXPECT_LE(taps, taps_inside_bound(g, node.shape[0] * node.shape[1]));
  EXPECT_TRUE(matches_clipped_windows(run.op, spec, g, X, Y, run.indices ? &Indices : nullptr));
}

class HugeWindows : public testing::TestWithParam<int> {};

TEST_P(HugeWindows, RunWithinTheTapBound) {
  const HugeNode node = huge_nodes()[static_cast<size_t>(GetParam())];
  SCOPED_TRACE("node " + std::to_string(GetParam()));
  for (const HugeRun& run : std::vector<HugeRun>{{PoolOp::kMaxPool, false, false, 0},
                                                 {PoolOp::kMaxPool, false, true, 0},
                                                 {PoolOp::kMaxPool, false, true, 1},
                                                 {PoolOp::kAveragePool, false},
                                                 {PoolOp::kAveragePool, true},
                                                 {PoolOp::kLpPool}}) {
    SCOPED_TRACE(std::string(onnxpool::op_name(run.op)) + " count_include_pad " +
                 std::to_string(run.count_include_pad) + " Indices " + std::to_string(run.indices) +
                 " storage_order " + std::to_string(run.storage_order));
    run_huge(node, run);
  }
}

INSTANTIATE_TEST_SUITE_P(FarPastTheInput, HugeWindows, testing::Range(0, 4));

}  // namespace
}  // namespace onnxpool_test
