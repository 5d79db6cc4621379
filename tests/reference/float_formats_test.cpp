// The 16-bit conversions underpin every float16/bfloat16 comparison, so they
// are checked against hand-worked encodings, exhaustively by round trip, and
// against independent oracles (the compiler's _Float16, the well-known
// bfloat16 rounding formula).
#include "reference/float_formats.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

namespace onnxpool_test {
namespace {

constexpr uint16_t kBinary16QuietBit = 0x0200;
constexpr uint16_t kBfloat16QuietBit = 0x0040;

TEST(Float16Conversion, EncodesHandWorkedValues) {
  EXPECT_EQ(float16_from_double(1.0), 0x3C00);
  EXPECT_EQ(float16_from_double(-2.0), 0xC000);
  EXPECT_EQ(float16_from_double(0.0), 0x0000);
  EXPECT_EQ(float16_from_double(-0.0), 0x8000);
  EXPECT_EQ(float16_from_double(65504.0), 0x7BFF);                 // largest finite
  EXPECT_EQ(float16_from_double(65519.99), 0x7BFF);                // just under the overflow tie
  EXPECT_EQ(float16_from_double(65520.0), 0x7C00);                 // tie rounds to even: infinity
  EXPECT_EQ(float16_from_double(std::ldexp(1.0, -14)), 0x0400);    // smallest normal
  EXPECT_EQ(float16_from_double(std::ldexp(1.0, -24)), 0x0001);    // smallest subnormal
  EXPECT_EQ(float16_from_double(std::ldexp(1.0, -25)), 0x0000);    // tie to even: zero
  EXPECT_EQ(float16_from_double(std::ldexp(3.0, -25)), 0x0002);    // tie to even: two units
  EXPECT_EQ(float16_from_double(1.0 + std::ldexp(1.0, -11)), 0x3C00);       // tie: stays even
  EXPECT_EQ(float16_from_double(1.0 + std::ldexp(3.0, -11)), 0x3C02);       // tie: up to even
  EXPECT_EQ(float16_from_double(std::ldexp(1023.5, -24)), 0x0400);  // subnormal rounds into normal
  EXPECT_EQ(float16_from_double(std::numeric_limits<double>::infinity()), 0x7C00);
  EXPECT_EQ(float16_from_double(-1e300), 0xFC00);
}

TEST(Float16Conversion, RoundsOnceFromDouble) {
  // Through float this value would first land exactly on the tie 1 + 2^-11
  // and then round down to 1.0; rounded once it must go up.
  EXPECT_EQ(float16_from_double(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)), 0x3C01);
}

TEST(Bfloat16Conversion, EncodesHandWorkedValues) {
  EXPECT_EQ(bfloat16_from_double(1.0), 0x3F80);
  EXPECT_EQ(bfloat16_from_double(-1.5), 0xBFC0);
  EXPECT_EQ(bfloat16_from_float(float_from_bits(0x3F808000)), 0x3F80);  // tie: stays even
  EXPECT_EQ(bfloat16_from_float(float_from_bits(0x3F818000)), 0x3F82);  // tie: up to even
  EXPECT_EQ(bfloat16_from_float(std::numeric_limits<float>::max()), 0x7F80);
  EXPECT_EQ(bfloat16_from_float(std::numeric_limits<float>::denorm_min()), 0x0000);
  EXPECT_EQ(bfloat16_from_float(float_from_bits(0x00010000)), 0x0001);  // smallest subnormal
}

TEST(Float16Conversion, RoundTripsEveryBitPattern) {
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    const float wide = float16_to_float(static_cast<uint16_t>(bits));
    const uint16_t back = float16_from_float(wide);
    if (std::isnan(wide)) {
      // A signaling NaN comes back quiet; sign and payload survive.
      ASSERT_EQ(back | kBinary16QuietBit, bits | kBinary16QuietBit) << std::hex << bits;
    } else {
      ASSERT_EQ(back, bits) << std::hex << bits;
      ASSERT_EQ(float16_from_double(wide), bits) << std::hex << bits;
    }
  }
}

TEST(Bfloat16Conversion, RoundTripsEveryBitPattern) {
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    const float wide = bfloat16_to_float(static_cast<uint16_t>(bits));
    ASSERT_EQ(float_bits(wide), bits << 16) << std::hex << bits;  // bfloat16 is the top half of a float
    const uint16_t back = bfloat16_from_float(wide);
    if (std::isnan(wide)) {
      ASSERT_EQ(back | kBfloat16QuietBit, bits | kBfloat16QuietBit) << std::hex << bits;
    } else {
      ASSERT_EQ(back, bits) << std::hex << bits;
    }
  }
}

TEST(Float16Conversion, KeepsNanSignAndPayload) {
  const float negative_nan_with_payload = float_from_bits(0xFFC12345);
  const uint16_t narrow = float16_from_float(negative_nan_with_payload);
  EXPECT_TRUE(std::isnan(float16_to_float(narrow)));
  EXPECT_EQ(narrow & 0x8000, 0x8000);
  EXPECT_EQ(narrow & 0x03FF, (0x412345 >> 13) | kBinary16QuietBit);
  // A payload only in the dropped low bits must not turn the NaN into infinity.
  EXPECT_TRUE(std::isnan(float16_to_float(float16_from_float(float_from_bits(0x7F800001)))));
  EXPECT_TRUE(std::isnan(bfloat16_to_float(bfloat16_from_float(float_from_bits(0x7F800001)))));
}

// Floats from every binade plus random bit patterns.
std::vector<float> sample_floats() {
  std::vector<float> samples;
  std::mt19937 engine(7);
  for (uint32_t high = 0; high < 0x200; ++high) {
    for (int i = 0; i < 2000; ++i) {
      samples.push_back(float_from_bits((high << 23) | (engine() & 0x7FFFFF)));
    }
  }
  for (uint32_t tie_bits : {0x00001000u, 0x00003000u, 0x00008000u, 0x00018000u}) {
    samples.push_back(float_from_bits(0x3F800000u | tie_bits));
  }
  return samples;
}

// The compiler's IEEE half type: GCC 12 has _Float16 in C++ on x86 but not
// on aarch64, whose __fp16 is IEEE binary16 by default.
#if defined(__aarch64__)
#define ONNXPOOL_TEST_COMPILER_FLOAT16 __fp16
#elif defined(__FLT16_MAX__)
#define ONNXPOOL_TEST_COMPILER_FLOAT16 _Float16
#endif

#if defined(ONNXPOOL_TEST_COMPILER_FLOAT16)
TEST(Float16Conversion, MatchesTheCompilersFloat16) {
  using CompilerFloat16 = ONNXPOOL_TEST_COMPILER_FLOAT16;
  for (float value : sample_floats()) {
    if (std::isnan(value)) continue;
    const CompilerFloat16 compiler = static_cast<CompilerFloat16>(value);
    uint16_t expected;
    std::memcpy(&expected, &compiler, sizeof expected);
    ASSERT_EQ(float16_from_float(value), expected) << std::hex << float_bits(value);
    ASSERT_EQ(float16_to_float(expected), static_cast<float>(compiler));
  }
}
#endif

TEST(Bfloat16Conversion, MatchesTheRoundingBiasFormula) {
  for (float value : sample_floats()) {
    if (std::isnan(value)) continue;
    const uint32_t bits = float_bits(value);
    const uint16_t expected = static_cast<uint16_t>((bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16);
    ASSERT_EQ(bfloat16_from_float(value), expected) << std::hex << bits;
  }
}

}  // namespace
}  // namespace onnxpool_test
