// Windows wider than the padded input are valid ONNX while the overhang is
// small: the output-size formula, with floor and ceil of the real quotient,
// gives 0 outputs along that axis in floor mode (overhang up to a stride: an
// empty Y, as onnx.reference gives) and 1 in ceil mode (overhang under a
// stride: the one window holds every tap inside X). ONNX's shape inference
// says 1 for the floor case too (it truncates the negative quotient); the
// shape differential (tools/shape_inference/) records that difference.
// Each case here runs every windowed operator against the reference.
#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

#include "onnxpool/onnxpool.h"
#include "support/maxpool_check.h"
#include "support/pool_cases.h"
#include "support/pool_check.h"
#include "support/random.h"
#include "support/value_fills.h"

namespace onnxpool_test {
namespace {

using onnxpool::PoolOp;
using Ints = std::vector<int64_t>;

struct WideWindow {
  std::string name;
  Ints shape, kernel, strides, dilations, pads;
  bool ceil_mode;
  Ints expected_output;
};

// gtest prints a failing parameter by its name, not its bytes.
void PrintTo(const WideWindow& w, std::ostream* os) { *os << w.name; }

std::vector<WideWindow> wide_windows() {
  return {
      // 7 taps over 5 + 1 padded rows, stride 2: floor((6 - 7) / 2) + 1 = 0.
      {"FloorModeOverhangWithinAStrideIsEmpty", {1, 2, 5, 4}, {7, 1}, {2, 1}, {1, 1}, {1, 0, 0, 0}, false, {1, 2, 0, 4}},
      // The same in ceil mode: ceil(-1 / 2) + 1 = 1, one window over all of X.
      {"CeilModeOverhangUnderAStrideGivesOneWindow", {1, 2, 5, 4}, {7, 1}, {2, 1}, {1, 1}, {1, 0, 0, 0}, true, {1, 2, 1, 4}},
      // Dilated: 3 taps 3 apart (7 wide) over 4 rows, stride 4, 1D.
      {"DilatedWindowInCeilMode", {2, 3, 4}, {3}, {4}, {3}, {0, 0}, true, {2, 3, 1}},
      // Wider on both axes of a 2D plane, one with the end padding.
      {"BothAxesInCeilMode", {1, 1, 3, 2}, {5, 4}, {3, 3}, {1, 1}, {0, 0, 1, 0}, true, {1, 1, 1, 1}},
      // 3D: the middle axis empty in floor mode.
      {"ThreeDimensionalFloorMode", {1, 2, 3, 2, 3}, {2, 4, 2}, {1, 3, 1}, {1, 1, 1}, {0, 0, 0, 0, 0, 0}, false,
       {1, 2, 2, 0, 2}},
  };
}

PoolSpec spec_of(const WideWindow& w) {
  PoolSpec s;
  s.kernel_shape = w.kernel;
  s.strides = w.strides;
  s.dilations = w.dilations;
  s.pads = w.pads;
  s.ceil_mode = w.ceil_mode;
  return s;
}

class WindowWiderThanInput : public testing::TestWithParam<WideWindow> {};

TEST_P(WindowWiderThanInput, InfersTheFormulasShapeAndRunsLikeTheReference) {
  const WideWindow& w = GetParam();
  const PoolSpec s = spec_of(w);
  for (PoolOp op : {PoolOp::kMaxPool, PoolOp::kAveragePool, PoolOp::kLpPool}) {
    for (bool include_pad : {false, true}) {
      if (include_pad && op != PoolOp::kAveragePool) continue;
      PoolSpec with = s;
      with.count_include_pad = include_pad;
      Random random(17);
      HostTensor X(onnxpool::ElementType::kFloat32, w.shape);
      if (op == PoolOp::kMaxPool) {
        fill_with_ties(random, &X, 0.0);
        const MaxPoolCase c = make_max_pool_case(with, X, /*with_indices=*/true);
        MaxPoolResult result;
        ASSERT_TRUE(library_max_pool(c, &result).is_ok()) << onnxpool::op_name(op);
        EXPECT_EQ(result.Y.shape(), w.expected_output) << onnxpool::op_name(op);
        EXPECT_TRUE(library_matches_reference(c)) << onnxpool::op_name(op);
      } else {
        const PoolCase c = make_filled_sum_pool_case(random, op, with, X);
        HostTensor Y;
        ASSERT_TRUE(library_pool(c, &Y).is_ok()) << onnxpool::op_name(op);
        EXPECT_EQ(Y.shape(), w.expected_output) << onnxpool::op_name(op);
        EXPECT_TRUE(pool_matches_reference(c)) << onnxpool::op_name(op) << " count_include_pad " << include_pad;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, WindowWiderThanInput, testing::ValuesIn(wide_windows()),
                         [](const testing::TestParamInfo<WideWindow>& info) { return info.param.name; });

}  // namespace
}  // namespace onnxpool_test
