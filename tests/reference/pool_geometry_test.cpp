// Output sizes and resolved pads worked out by hand from the ONNX rules; the
// ones docs/semantics.md calls out as commonly wrong were also cross-checked with
// ONNX's own shape inference (onnx 1.23, opset 22).
#include "reference/pool_geometry.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace onnxpool_test {
namespace {

using Ints = std::vector<int64_t>;

PoolSpec spec_1d(int64_t kernel, int64_t stride = 1, int64_t dilation = 1) {
  PoolSpec spec;
  spec.kernel_shape = {kernel};
  spec.strides = {stride};
  spec.dilations = {dilation};
  return spec;
}

TEST(PoolGeometry, FloorModeDropsThePartialWindow) {
  PoolSpec spec = spec_1d(3, 2);
  spec.pads = {0, 1};
  EXPECT_EQ(window_geometry(spec, {5}).output, Ints{2});
}

TEST(PoolGeometry, CeilModeKeepsAWindowThatStartsInsideTheInput) {
  PoolSpec spec = spec_1d(3, 2);
  spec.pads = {0, 1};
  spec.ceil_mode = true;
  EXPECT_EQ(window_geometry(spec, {5}).output, Ints{3});  // last window starts at 4
}

TEST(PoolGeometry, CeilModeDropsAWindowThatWouldStartInTheEndPadding) {
  PoolSpec spec = spec_1d(3, 2);
  spec.pads = {0, 2};
  spec.ceil_mode = true;
  // ceil((4 + 2 - 3) / 2) + 1 = 3, but the third window would start at 4 == in.
  EXPECT_EQ(window_geometry(spec, {4}).output, Ints{2});
}

TEST(PoolGeometry, SameLowerPutsTheOddPadAtTheStart) {
  PoolSpec spec = spec_1d(2);
  spec.auto_pad = "SAME_LOWER";
  const WindowGeometry g = window_geometry(spec, {6});
  EXPECT_EQ(g.onnx_pads(), (Ints{1, 0}));
  EXPECT_EQ(g.output, Ints{6});
}

TEST(PoolGeometry, SameUpperPutsTheOddPadAtTheEnd) {
  PoolSpec spec = spec_1d(2);
  spec.auto_pad = "SAME_UPPER";
  const WindowGeometry g = window_geometry(spec, {6});
  EXPECT_EQ(g.onnx_pads(), (Ints{0, 1}));
  EXPECT_EQ(g.output, Ints{6});
}

TEST(PoolGeometry, SamePadsComeFromTheDilatedKernel) {
  PoolSpec lower = spec_1d(2, 1, 3);  // covers 4 positions
  lower.auto_pad = "SAME_LOWER";
  EXPECT_EQ(window_geometry(lower, {5}).onnx_pads(), (Ints{2, 1}));
  EXPECT_EQ(window_geometry(lower, {5}).output, Ints{5});

  PoolSpec upper = spec_1d(3, 2, 2);  // covers 5 positions
  upper.auto_pad = "SAME_UPPER";
  // total = (ceil(7/2) - 1) * 2 + 5 - 7 = 4
  EXPECT_EQ(window_geometry(upper, {7}).onnx_pads(), (Ints{2, 2}));
  EXPECT_EQ(window_geometry(upper, {7}).output, Ints{4});
}

TEST(PoolGeometry, SameNeverPadsNegatively) {
  PoolSpec spec = spec_1d(1, 8);
  spec.auto_pad = "SAME_UPPER";
  const WindowGeometry g = window_geometry(spec, {5});
  EXPECT_EQ(g.onnx_pads(), (Ints{0, 0}));
  EXPECT_EQ(g.output, Ints{1});
}

// The spec states the SAME output size twice: as ceil(in / stride), and
// through the general formula with the resolved pads. They must agree.
TEST(PoolGeometry, SameOutputIsCeilOfInputOverStride) {
  for (const char* mode : {"SAME_UPPER", "SAME_LOWER"}) {
    for (bool ceil_mode : {false, true}) {
      for (int64_t in = 1; in <= 20; ++in) {
        for (int64_t kernel = 1; kernel <= 5; ++kernel) {
          for (int64_t stride = 1; stride <= 5; ++stride) {
            for (int64_t dilation = 1; dilation <= 3; ++dilation) {
              PoolSpec spec = spec_1d(kernel, stride, dilation);
              spec.auto_pad = mode;
              spec.ceil_mode = ceil_mode;
              ASSERT_EQ(window_geometry(spec, {in}).output, Ints{(in + stride - 1) / stride})
                  << mode << " ceil_mode=" << ceil_mode << " in=" << in << spec.to_string();
            }
          }
        }
      }
    }
  }
}

TEST(PoolGeometry, ValidMeansZeroPads) {
  PoolSpec spec = spec_1d(3, 2);
  spec.auto_pad = "VALID";
  EXPECT_EQ(window_geometry(spec, {7}).onnx_pads(), (Ints{0, 0}));
  EXPECT_EQ(window_geometry(spec, {7}).output, Ints{3});
  // With ceil_mode, VALID behaves exactly like explicit zero pads (the rule of
  // docs/semantics.md and of ONNX shape inference; the spec prose's VALID formula
  // would say 2 here).
  PoolSpec ceil_spec = spec_1d(2, 2);
  ceil_spec.auto_pad = "VALID";
  ceil_spec.ceil_mode = true;
  EXPECT_EQ(window_geometry(ceil_spec, {5}).output, Ints{3});
}

TEST(PoolGeometry, DefaultsAndAsymmetricPadsPerAxis) {
  PoolSpec spec;
  spec.kernel_shape = {3, 2};
  spec.pads = {1, 0, 2, 1};  // begin: 1, 0; end: 2, 1
  const WindowGeometry g = window_geometry(spec, {4, 5});
  EXPECT_EQ(g.strides, (Ints{1, 1}));
  EXPECT_EQ(g.dilations, (Ints{1, 1}));
  EXPECT_EQ(g.pad_begin, (Ints{1, 0}));
  EXPECT_EQ(g.pad_end, (Ints{2, 1}));
  EXPECT_EQ(g.output, (Ints{5, 5}));  // 4+3-3+1, 5+1-2+1
}

TEST(PoolGeometry, ADilatedKernelWiderThanThePaddedInput) {
  PoolSpec spec = spec_1d(3, 1, 2);  // covers 5, stride 1
  spec.pads = {0, 1};                // 4 wide, over by one stride: floor((4 - 5) / 1) + 1 = 0
  EXPECT_EQ(window_geometry(spec, {3}).output, Ints{0});
  spec.ceil_mode = true;             // ceil(-1 / 1) + 1 = 0 too
  EXPECT_EQ(window_geometry(spec, {3}).output, Ints{0});
  spec.ceil_mode = false;
  spec.pads = {0, 0};                // 3 wide, over by two strides: a negative size
  EXPECT_THROW(window_geometry(spec, {3}), std::invalid_argument);
  spec.pads = {1, 1};
  EXPECT_EQ(window_geometry(spec, {3}).output, Ints{1});
  PoolSpec strided = spec_1d(5, 3);  // over by 1, under a stride of 3
  strided.ceil_mode = true;          // ceil(-1 / 3) + 1 = 1: one window over all of X
  EXPECT_EQ(window_geometry(strided, {4}).output, Ints{1});
  strided.ceil_mode = false;         // floor(-1 / 3) + 1 = 0
  EXPECT_EQ(window_geometry(strided, {4}).output, Ints{0});
}

}  // namespace
}  // namespace onnxpool_test
