// MaxPool and AveragePool on 2D "same" windows (stride 1, output plane =
// input plane), which the runtime sends to the flat-plane kernels
// (runtime/plan/flat_plane.h; white box: each case first checks that the runtime
// does pick that path for it, so the comparisons below cannot quietly test
// the separable kernels instead), on every CPU variant this machine runs.
// Kernels the flat kernels unroll (3, 5) and ones they loop over (1, 2, 4, 7,
// and off-centre pads), planes from one window high or wide up to several
// vectors, every element type, against the reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "plan/flat_plane.h"
#include "onnxpool/attributes.h"
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
#include "plan/window_geometry.h"

namespace onnxpool_test {
namespace {

using onnxpool::PoolOp;
using Ints = std::vector<int64_t>;

struct SameWindow {
  std::string name;
  PoolSpec spec;
};

PoolSpec same_window(Ints kernel, Ints pads, const std::string& auto_pad = "NOTSET") {
  const Ints strides(kernel.size(), 1);
  PoolSpec spec = window_spec(std::move(kernel), strides, std::move(pads));
  spec.auto_pad = auto_pad;
  return spec;
}

std::vector<SameWindow> same_windows() {
  return {
      {"k3_centred", same_window({3, 3}, {1, 1, 1, 1})},
      {"k5_centred", same_window({5, 5}, {2, 2, 2, 2})},
      {"k1", same_window({1, 1}, {})},
      {"k2_same_upper", same_window({2, 2}, {}, "SAME_UPPER")},
      {"k2_same_lower", same_window({2, 2}, {}, "SAME_LOWER")},
      {"k4_same_upper", same_window({4, 4}, {}, "SAME_UPPER")},
      {"k7_centred", same_window({7, 7}, {3, 3, 3, 3})},
      {"k3x5", same_window({3, 5}, {1, 2, 1, 2})},
      {"k5x3", same_window({5, 3}, {2, 1, 2, 1})},
      // k = 3 but off-centre (pads [y_begin, x_begin, y_end, x_end]): the
      // general tap loops on both axes.
      {"k3_off_centre", same_window({3, 3}, {0, 2, 2, 0})},
  };
}

// (H, W): one window high and wide, narrower than a vector, exactly a
// vector, just past one, S4's 28 x 28, and the widest plane the flat
// kernels take (each at least a window).
std::vector<std::pair<int64_t, int64_t>> plane_shapes(const PoolSpec& spec) {
  const int64_t kh = spec.kernel_shape[0], kw = spec.kernel_shape[1];
  const std::vector<std::pair<int64_t, int64_t>> wanted = {{kh, kw},  {kh, 17}, {7, kw + 2}, {9, 16},
                                                           {5, 33},   {28, 28}, {13, 63}};
  std::vector<std::pair<int64_t, int64_t>> shapes;
  for (const auto& [h, w] : wanted) shapes.push_back({std::max(h, kh), std::max(w, kw)});
  return shapes;
}

class FlatPlaneWindows : public testing::TestWithParam<SameWindow> {
 protected:
  void TearDown() override { EXPECT_TRUE(onnxpool::set_cpu_variant_limit(onnxpool::CpuVariant::kNative)); }
};

TEST_P(FlatPlaneWindows, MaxPoolMatchesReference) {
  const SameWindow& w = GetParam();
  BatchOutcome outcome;
  uint64_t index = 0;
  const int variants = on_each_cpu_variant([&](onnxpool::CpuVariant variant) {
    for (ElementType type : max_pool_types()) {
      for (const auto& [height, width] : plane_shapes(w.spec)) {
        Random random(derive_seed(test_seed(), 9100, index++));
        HostTensor X(type, {2, 3, height, width});
        fill_with_ties(random, &X, 0.05);
        const MaxPoolCase c = make_max_pool_case(w.spec, std::move(X), /*with_indices=*/false);
        ASSERT_TRUE(
            onnxpool::detail::flat_plane_suits(runtime_geometry(PoolOp::kMaxPool, c.attributes, c.X.shape())))
            << c.describe();
        record_variant_case(&outcome, variant, c.describe(), library_matches_reference(c));
      }
    }
  });
  EXPECT_EQ(outcome.cases_run,
            variants * static_cast<int>(max_pool_types().size() * plane_shapes(w.spec).size()));
  EXPECT_TRUE(outcome.failures.empty()) << outcome.report();
}

TEST_P(FlatPlaneWindows, AveragePoolMatchesReference) {
  const SameWindow& w = GetParam();
  BatchOutcome outcome;
  uint64_t index = 0;
  const int variants = on_each_cpu_variant([&](onnxpool::CpuVariant variant) {
    for (bool count_include_pad : {false, true}) {
      for (ElementType type : float_types()) {
        for (const auto& [height, width] : plane_shapes(w.spec)) {
          Random random(derive_seed(test_seed(), 9200, index++));
          PoolSpec spec = w.spec;
          spec.count_include_pad = count_include_pad;
          const PoolCase c =
              make_filled_sum_pool_case(random, PoolOp::kAveragePool, spec, HostTensor(type, {2, 3, height, width}));
          ASSERT_TRUE(
              onnxpool::detail::flat_plane_suits(runtime_geometry(PoolOp::kAveragePool, c.attributes, c.X.shape())))
              << c.describe();
          record_variant_case(&outcome, variant, c.describe(), pool_matches_reference(c));
        }
      }
    }
  });
  EXPECT_EQ(outcome.cases_run,
            variants * static_cast<int>(2 * float_types().size() * plane_shapes(w.spec).size()));
  EXPECT_TRUE(outcome.failures.empty()) << outcome.report();
}

INSTANTIATE_TEST_SUITE_P(SameWindows, FlatPlaneWindows, testing::ValuesIn(same_windows()),
                         [](const testing::TestParamInfo<SameWindow>& info) { return info.param.name; });

// The geometries the flat kernels must not take: each breaks one condition
// of runtime/plan/flat_plane.h, and the separable kernels serve it.
TEST(FlatPlaneChoice, OnlySameWindowsOnSmallPlanes) {
  const onnxpool::Attributes same = max_pool_attributes(same_window({3, 3}, {1, 1, 1, 1}));
  EXPECT_TRUE(onnxpool::detail::flat_plane_suits(runtime_geometry(PoolOp::kMaxPool, same, {1, 192, 28, 28})));
  const std::vector<std::pair<std::string, PoolSpec>> not_flat = {
      {"stride 2", window_spec({3, 3}, {2, 2}, {1, 1, 1, 1})},
      {"output smaller than input", window_spec({3, 3}, {1, 1})},
      {"dilation 2", [] {
         PoolSpec s = same_window({3, 3}, {2, 2, 2, 2});
         s.dilations = {2, 2};
         return s;
       }()},
  };
  for (const auto& [why, spec] : not_flat) {
    EXPECT_FALSE(onnxpool::detail::flat_plane_suits(
        runtime_geometry(PoolOp::kMaxPool, max_pool_attributes(spec), {1, 192, 28, 28})))
        << why;
  }
  // Shorter than the window (the edge rows would overlap), rows as wide as
  // the separable kernels' break-even, a narrow plane past the size limit,
  // a 3D pool.
  EXPECT_FALSE(onnxpool::detail::flat_plane_suits(runtime_geometry(PoolOp::kMaxPool, same, {1, 192, 2, 28})));
  EXPECT_TRUE(onnxpool::detail::flat_plane_suits(runtime_geometry(PoolOp::kMaxPool, same, {1, 8, 64, 63})));
  EXPECT_FALSE(onnxpool::detail::flat_plane_suits(runtime_geometry(PoolOp::kMaxPool, same, {1, 8, 64, 64})));
  EXPECT_FALSE(onnxpool::detail::flat_plane_suits(runtime_geometry(PoolOp::kMaxPool, same, {1, 8, 2048, 40})));
  const onnxpool::Attributes same_3d = max_pool_attributes(same_window({3, 3, 3}, {1, 1, 1, 1, 1, 1}));
  EXPECT_FALSE(onnxpool::detail::flat_plane_suits(runtime_geometry(PoolOp::kMaxPool, same_3d, {1, 8, 8, 8, 8})));
}

}  // namespace
}  // namespace onnxpool_test
