// The runtime's 16-bit float conversions (runtime/execute/half_widening.h), which
// carry float16 and bfloat16 through the float32 kernels on OpenCL devices
// without cl_khr_fp16. Checked against the test reference's own
// conversions (tests/reference/float_formats.h, themselves checked against
// the compiler's float16): every 16-bit pattern, and a spread of floats.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>

#include "execute/half_widening.h"
#include "reference/float_formats.h"

namespace onnxpool_test {
namespace {

namespace runtime = onnxpool::detail;

bool is_float16_nan(uint16_t h) { return (h & 0x7FFFu) > 0x7C00u; }
bool is_bfloat16_nan(uint16_t h) { return (h & 0x7FFFu) > 0x7F80u; }

TEST(HalfWidening, EveryFloat16WidensExactlyAndNarrowsBack) {
  for (uint32_t h = 0; h <= 0xFFFF; ++h) {
    const auto half = static_cast<uint16_t>(h);
    const float wide = runtime::float16_to_float(half);
    if (is_float16_nan(half)) {
      ASSERT_TRUE(std::isnan(wide)) << std::hex << h;
      ASSERT_EQ(runtime::float_to_float16(wide), 0x7E00) << std::hex << h;  // the canonical NaN
      continue;
    }
    ASSERT_EQ(float_bits(wide), float_bits(float16_to_float(half))) << std::hex << h;
    ASSERT_EQ(runtime::float_to_float16(wide), half) << std::hex << h;
  }
}

TEST(HalfWidening, EveryBfloat16WidensExactlyAndNarrowsBack) {
  for (uint32_t h = 0; h <= 0xFFFF; ++h) {
    const auto half = static_cast<uint16_t>(h);
    const float wide = runtime::bfloat16_to_float(half);
    if (is_bfloat16_nan(half)) {
      ASSERT_TRUE(std::isnan(wide)) << std::hex << h;
      ASSERT_EQ(runtime::float_to_bfloat16(wide), 0x7FC0) << std::hex << h;
      continue;
    }
    ASSERT_EQ(float_bits(wide), float_bits(bfloat16_to_float(half))) << std::hex << h;
    ASSERT_EQ(runtime::float_to_bfloat16(wide), half) << std::hex << h;
  }
}

// Floats from every binade (random mantissas) and the ties between 16-bit
// neighbours: narrowing must round to nearest, ties to even, overflow to inf.
TEST(HalfWidening, NarrowingRoundsLikeTheReference) {
  std::mt19937 engine(11);
  for (uint32_t high = 0; high < 0x200; ++high) {
    for (int i = 0; i < 300; ++i) {
      const float value = float_from_bits((high << 23) | (engine() & 0x7FFFFFu));
      if (std::isnan(value)) continue;
      ASSERT_EQ(runtime::float_to_float16(value), float16_from_float(value)) << std::hex << float_bits(value);
      ASSERT_EQ(runtime::float_to_bfloat16(value), bfloat16_from_float(value)) << std::hex << float_bits(value);
    }
  }
  for (uint32_t h = 0; h < 0x7BFF; ++h) {  // midpoints between consecutive finite float16 values
    const float low = runtime::float16_to_float(static_cast<uint16_t>(h));
    const float high = runtime::float16_to_float(static_cast<uint16_t>(h + 1));
    const float tie = low + (high - low) / 2;  // exact: float has 13 more mantissa bits
    ASSERT_EQ(runtime::float_to_float16(tie), (h % 2 == 0) ? h : h + 1) << std::hex << h;
    ASSERT_EQ(runtime::float_to_float16(-tie), ((h % 2 == 0) ? h : h + 1) | 0x8000u) << std::hex << h;
  }
  EXPECT_EQ(runtime::float_to_float16(65519.99f), 0x7BFF);  // below the tie with 65536: largest finite
  EXPECT_EQ(runtime::float_to_float16(65520.0f), 0x7C00);   // the tie rounds to even: infinity
  EXPECT_EQ(runtime::float_to_bfloat16(3.4028235e38f), 0x7F80);
}

}  // namespace
}  // namespace onnxpool_test
