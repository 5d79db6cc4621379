// MaxPool and AveragePool on 2x2 stride-2 windows inside the input, which
// the runtime sends to the halving kernels (runtime/plan/halving.h; white box: each case first
// checks that the runtime does pick that path, so the comparisons cannot
// quietly test the separable kernels instead), on every CPU variant this
// machine runs: every element type against the reference at widths that
// leave every kind of vector tail, and, written out by hand, the windows
// where the float32/float64 kernels' plain float max needs its fixes
// (generators/float_maximum.h): signed zeros and NaNs of either sign.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "plan/halving.h"
#include "onnxpool/pooling.h"
#include "support/cpu_variants.h"
#include "support/float_type_info.h"
#include "support/maxpool_check.h"
#include "support/pool_cases.h"
#include "support/pool_check.h"
#include "support/random.h"
#include "support/runtime_geometry.h"
#include "support/test_settings.h"
#include "support/value_fills.h"

namespace onnxpool_test {
namespace {

using onnxpool::PoolOp;
using Ints = std::vector<int64_t>;

const PoolSpec kHalving = window_spec({2, 2}, {2, 2});

bool takes_halving_kernel(const PoolSpec& spec, const Ints& shape) {
  return onnxpool::detail::halving_suits(runtime_geometry(PoolOp::kMaxPool, max_pool_attributes(spec), shape));
}

TEST(HalvingChoice, OnlyTwoByTwoStrideTwoWindowsInsideTheInput) {
  EXPECT_TRUE(takes_halving_kernel(kHalving, {1, 128, 56, 56}));
  EXPECT_TRUE(takes_halving_kernel(kHalving, {2, 3, 57, 9}));   // odd: the last row and column are not read
  EXPECT_TRUE(takes_halving_kernel(kHalving, {1, 1, 2, 2}));
  // An end pad on an even axis adds no window.
  EXPECT_TRUE(takes_halving_kernel(window_spec({2, 2}, {2, 2}, {0, 0, 1, 1}), {1, 4, 8, 8}));
  const std::vector<std::pair<std::string, std::pair<PoolSpec, Ints>>> not_halving = {
      {"ceil_mode window over the edge", {window_spec({2, 2}, {2, 2}, {}, true), {1, 4, 7, 8}}},
      {"end pad window over the edge", {window_spec({2, 2}, {2, 2}, {0, 0, 0, 1}), {1, 4, 8, 7}}},
      {"begin pad", {window_spec({2, 2}, {2, 2}, {1, 0, 0, 0}), {1, 4, 8, 8}}},
      {"3x3 stride 2 (ResNet)", {window_spec({3, 3}, {2, 2}, {1, 1, 1, 1}), {1, 4, 8, 8}}},
      {"2x2 stride 1", {window_spec({2, 2}, {1, 1}), {1, 4, 8, 8}}},
      {"2x1 stride 2x1", {window_spec({2, 1}, {2, 1}), {1, 4, 8, 8}}},
      {"dilation 2", {[] {
                        PoolSpec s = window_spec({2, 2}, {2, 2});
                        s.dilations = {2, 2};
                        return s;
                      }(),
                      {1, 4, 8, 8}}},
      {"1D", {window_spec({2}, {2}), {1, 4, 8}}},
      {"3D", {window_spec({2, 2, 2}, {2, 2, 2}), {1, 4, 8, 8, 8}}},
  };
  for (const auto& [why, spec_and_shape] : not_halving) {
    EXPECT_FALSE(takes_halving_kernel(spec_and_shape.first, spec_and_shape.second)) << why;
  }
}

class HalvingWindows : public testing::Test {
 protected:
  void TearDown() override { EXPECT_TRUE(onnxpool::set_cpu_variant_limit(onnxpool::CpuVariant::kNative)); }
};

// (H, W) of X: one window, odd sizes, outputs narrower than a float32
// vector, exactly one, one past it, VGG's 56 x 56, and rows past a vector of
// 8-bit lanes (64 on AVX-512).
const std::vector<std::pair<int64_t, int64_t>> kPlaneShapes = {{2, 2},  {3, 5},  {7, 31},  {9, 32},  {4, 34},
                                                               {17, 18}, {2, 33}, {56, 56}, {5, 130}, {6, 257}};

TEST_F(HalvingWindows, MaxPoolMatchesReference) {
  BatchOutcome outcome;
  uint64_t index = 0;
  const int variants = on_each_cpu_variant([&](onnxpool::CpuVariant variant) {
    for (ElementType type : max_pool_types()) {
      for (const auto& [height, width] : kPlaneShapes) {
        for (bool any_bits : {false, true}) {
          Random random(derive_seed(test_seed(), 9500, index++));
          HostTensor X(type, {2, 3, height, width});
          if (any_bits) {
            fill_with_any_bits(random, &X);
          } else {
            fill_with_ties(random, &X, 0.05);
          }
          const MaxPoolCase c = make_max_pool_case(kHalving, std::move(X), /*with_indices=*/false);
          ASSERT_TRUE(takes_halving_kernel(kHalving, c.X.shape())) << c.describe();
          record_variant_case(&outcome, variant, c.describe(), library_matches_reference(c));
        }
      }
    }
  });
  EXPECT_EQ(outcome.cases_run, variants * static_cast<int>(max_pool_types().size() * kPlaneShapes.size() * 2));
  EXPECT_TRUE(outcome.failures.empty()) << outcome.report();
}

TEST_F(HalvingWindows, AveragePoolMatchesReference) {
  BatchOutcome outcome;
  uint64_t index = 0;
  const int variants = on_each_cpu_variant([&](onnxpool::CpuVariant variant) {
    // count_include_pad changes nothing here (no window reaches a pad), but
    // the runtime passes it either way.
    for (bool count_include_pad : {false, true}) {
      for (ElementType type : float_types()) {
        for (const auto& [height, width] : kPlaneShapes) {
          Random random(derive_seed(test_seed(), 9600, index++));
          PoolSpec spec = kHalving;
          spec.count_include_pad = count_include_pad;
          const PoolCase c =
              make_filled_sum_pool_case(random, PoolOp::kAveragePool, spec, HostTensor(type, {2, 3, height, width}));
          ASSERT_TRUE(onnxpool::detail::halving_suits(runtime_geometry(PoolOp::kAveragePool, c.attributes, c.X.shape())))
              << c.describe();
          record_variant_case(&outcome, variant, c.describe(), pool_matches_reference(c));
        }
      }
    }
  });
  EXPECT_EQ(outcome.cases_run, variants * static_cast<int>(2 * float_types().size() * kPlaneShapes.size()));
  EXPECT_TRUE(outcome.failures.empty()) << outcome.report();
}

uint64_t raw_bits(const HostTensor& t, int64_t i) {
  uint64_t bits = 0;
  const size_t width = bytes_per_element(t.type());
  std::memcpy(&bits, static_cast<const unsigned char*>(t.data()) + static_cast<size_t>(i) * width, width);
  return bits;
}

// With ceil_mode on odd sizes the same windows plus a partial last row and
// column go to the separable kernels; the outputs both compute must agree
// bit for bit (MaxPool's keys against the float maximum, including -0 and
// NaNs of any payload; AveragePool's sums in the same order).
TEST_F(HalvingWindows, AgreesBitForBitWithTheSeparableKernels) {
  const PoolSpec ceil_spec = window_spec({2, 2}, {2, 2}, {}, /*ceil_mode=*/true);
  int compared = 0;
  uint64_t index = 0;
  const int variants = on_each_cpu_variant([&](onnxpool::CpuVariant variant) {
    for (PoolOp op : {PoolOp::kMaxPool, PoolOp::kAveragePool}) {
      for (ElementType type : op == PoolOp::kMaxPool ? max_pool_types() : float_types()) {
        const Ints shape{1, 3, 9, 37};
        ASSERT_TRUE(takes_halving_kernel(kHalving, shape));
        ASSERT_FALSE(takes_halving_kernel(ceil_spec, shape));
        Random random(derive_seed(test_seed(), 9700, index++));
        HostTensor X(type, shape);
        if (op == PoolOp::kMaxPool) {
          fill_with_any_bits(random, &X);
          for (int64_t i = 0; i < X.size(); i += 5) {
            if (is_floating_point(type)) X.set(i, random.chance(0.5) ? -0.0 : 0.0);
          }
        } else {
          fill_for_sum_pool(random, &X, SumPool::kAverage);
        }
        HostTensor halved, ceiled;
        ASSERT_TRUE(library_pool(make_pool_case(op, kHalving, X), &halved).is_ok());
        ASSERT_TRUE(library_pool(make_pool_case(op, ceil_spec, X), &ceiled).is_ok());
        ASSERT_EQ(halved.shape(), (Ints{1, 3, 4, 18}));
        ASSERT_EQ(ceiled.shape(), (Ints{1, 3, 5, 19}));
        for (int64_t plane = 0; plane < 3; ++plane) {
          for (int64_t y = 0; y < 4; ++y) {
            for (int64_t x = 0; x < 18; ++x) {
              const int64_t h = (plane * 4 + y) * 18 + x, c = (plane * 5 + y) * 19 + x;
              ASSERT_EQ(raw_bits(halved, h), raw_bits(ceiled, c))
                  << onnxpool::op_name(op) << " " << type_label(type) << " plane " << plane << " y " << y << " x "
                  << x << ", " << onnxpool::cpu_variant_name(variant);
              ++compared;
            }
          }
        }
      }
    }
  });
  EXPECT_EQ(compared, variants * static_cast<int>((max_pool_types().size() + float_types().size()) * 3 * 4 * 18));
}

// One 2x2 window (scan order: top-left, top-right, bottom-left,
// bottom-right) and its IEEE 754-2019 maximum; NaN means the canonical quiet
// NaN's exact bits.
struct HandWindow {
  double taps[4];
  double expected;
};

std::vector<HandWindow> hand_windows() {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double negative_nan = std::copysign(nan, -1.0);
  return {
      {{0.0, -0.0, -1, -2}, 0.0},         {{-0.0, 0.0, -inf, -3}, 0.0},      {{-0.0, -0.0, -1, -inf}, -0.0},
      {{-0.0, -5, -0.0, -0.5}, -0.0},     {{-1, -0.5, -3, -inf}, -0.5},      {{nan, 1, 2, 3}, nan},
      {{1, 2, 3, negative_nan}, nan},     {{inf, -inf, negative_nan, -0.0}, nan}, {{-inf, -inf, -inf, -inf}, -inf},
      {{5, 7, 7, -0.0}, 7},               {{-0.0, -2, 0.0, nan}, nan},       {{3, -0.0, 0.0, inf}, inf},
  };
}

uint64_t canonical_nan_bits(ElementType type) {
  switch (type) {
    case ElementType::kFloat16: return 0x7E00;
    case ElementType::kBFloat16: return 0x7FC0;
    case ElementType::kFloat64: return 0x7FF8000000000000ull;
    default: return 0x7FC00000u;
  }
}


// Rows of `copies` x the hand windows side by side: 12 outputs (narrower
// than a float32 vector) and 48 (whole vectors and a shifted last one).
TEST_F(HalvingWindows, SignedZerosAndNansFollowIeeeMaximum) {
  const std::vector<HandWindow> windows = hand_windows();
  int checked = 0;
  const int variants = on_each_cpu_variant([&](onnxpool::CpuVariant variant) {
    for (ElementType type : float_types()) {
      for (int copies : {1, 4}) {
        const int64_t outputs = static_cast<int64_t>(windows.size()) * copies;
        HostTensor X(type, {1, 1, 2, 2 * outputs});
        for (int64_t o = 0; o < outputs; ++o) {
          const HandWindow& w = windows[static_cast<size_t>(o) % windows.size()];
          for (int tap = 0; tap < 4; ++tap) X.set((tap / 2) * 2 * outputs + 2 * o + tap % 2, w.taps[tap]);
        }
        const MaxPoolCase c = make_max_pool_case(kHalving, std::move(X), /*with_indices=*/false);
        ASSERT_TRUE(takes_halving_kernel(kHalving, c.X.shape()));
        MaxPoolResult r;
        const onnxpool::Status status = library_max_pool(c, &r);
        ASSERT_TRUE(status.is_ok()) << status.message();
        for (int64_t o = 0; o < outputs; ++o) {
          const HandWindow& w = windows[static_cast<size_t>(o) % windows.size()];
          const std::string where = std::string(type_label(type)) + " window " +
                                    std::to_string(o % windows.size()) + ", " + std::to_string(outputs) +
                                    " outputs, " + onnxpool::cpu_variant_name(variant);
          if (std::isnan(w.expected)) {
            EXPECT_EQ(raw_bits(r.Y, o), canonical_nan_bits(type)) << where;
          } else {
            EXPECT_EQ(r.Y.get(o), w.expected) << where;
            EXPECT_EQ(std::signbit(r.Y.get(o)), std::signbit(w.expected)) << where;
          }
          ++checked;
        }
      }
    }
  });
  EXPECT_EQ(checked, variants * static_cast<int>(float_types().size() * windows.size() * 5));
}

}  // namespace
}  // namespace onnxpool_test
