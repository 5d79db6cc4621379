// The x86 runtime dispatcher: every variant this CPU can run must be
// selectable through set_cpu_variant_limit and must match the reference, for
// every operator.
// Which variants the CPU supports is worked out here independently of the
// library (the compiler's CPU-feature builtins, which also check OS support
// for AVX, and CPUID for F16C, which they do not all name).
#include <gtest/gtest.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include <cstdio>
#include <string>

#include "onnxpool/pooling.h"
#include "support/float_type_info.h"
#include "support/maxpool_check.h"
#include "support/pool_check.h"
#include "support/test_settings.h"

namespace onnxpool_test {
namespace {

using onnxpool::CpuVariant;

constexpr int kCasesPerVariant = 60;
constexpr int kCasesPerVariantAndOperator = 16;
constexpr uint64_t kStreamBase = 3000;

// Higher is more capable; a limit allows its own level and everything below.
int level(CpuVariant variant) {
  switch (variant) {
    case CpuVariant::kBaseline: return 0;
    case CpuVariant::kAvx2: return 1;
    case CpuVariant::kAvx512: return 2;
    case CpuVariant::kNative: return 3;
  }
  return -1;
}

// docs/architecture.md, "Targets and cross builds": avx512_skylake (F, CD, BW, DQ, VL), avx2+fma+f16c, sse41 baseline.
// Off x86 only the baseline exists.
bool cpu_runs(CpuVariant variant) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  // F16C is CPUID leaf 1, ECX bit 29 (clang's __builtin_cpu_supports has no name for it).
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  __cpuid(1, eax, ebx, ecx, edx);
  const bool f16c = ((ecx >> 29) & 1) != 0;
  const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && f16c;
  switch (variant) {
    case CpuVariant::kBaseline: return true;
    case CpuVariant::kAvx2: return avx2;
    case CpuVariant::kAvx512:
      return avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
             __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
             __builtin_cpu_supports("avx512vl");
    case CpuVariant::kNative: return true;
  }
  return false;
#else
  return variant == CpuVariant::kBaseline || variant == CpuVariant::kNative;
#endif
}

// The variants this library was built with (ONNXPOOL_TARGET_CPU_VARIANTS,
// from CMake): a sanitizer build has the baseline only.
bool compiled(CpuVariant variant) {
  const std::string list = ONNXPOOL_TEST_CPU_VARIANTS;
  const char* name = variant == CpuVariant::kAvx512 ? "kAvx512" : variant == CpuVariant::kAvx2 ? "kAvx2" : "kBaseline";
  return variant == CpuVariant::kNative || ("," + list + ",").find("," + std::string(name) + ",") != std::string::npos;
}

// What the dispatcher may pick: built in, and run by this CPU.
bool available(CpuVariant variant) { return compiled(variant) && cpu_runs(variant); }

CpuVariant best_supported() {
  for (CpuVariant variant : {CpuVariant::kAvx512, CpuVariant::kAvx2}) {
    if (available(variant)) return variant;
  }
  return CpuVariant::kBaseline;
}

class CpuVariants : public testing::Test {
 protected:
  void TearDown() override {
    EXPECT_TRUE(onnxpool::set_cpu_variant_limit(CpuVariant::kNative).is_ok());
    EXPECT_EQ(onnxpool::active_cpu_variant(), best_supported());
  }
};

TEST_F(CpuVariants, EachLimitSelectsItselfWhenSupportedOtherwiseSomethingLower) {
  for (CpuVariant limit : {CpuVariant::kAvx512, CpuVariant::kAvx2, CpuVariant::kBaseline}) {
    const onnxpool::Status status = onnxpool::set_cpu_variant_limit(limit);
    ASSERT_TRUE(status.is_ok()) << onnxpool::cpu_variant_name(limit) << ": " << status.message();
    const CpuVariant active = onnxpool::active_cpu_variant();
    EXPECT_NE(active, CpuVariant::kNative) << "active_cpu_variant names a concrete variant";
    if (available(limit)) {
      EXPECT_EQ(active, limit) << "limit " << onnxpool::cpu_variant_name(limit) << ", active "
                               << onnxpool::cpu_variant_name(active);
    } else {
      EXPECT_LT(level(active), level(limit)) << onnxpool::cpu_variant_name(active);
      EXPECT_TRUE(available(active)) << onnxpool::cpu_variant_name(active)
                                     << " picked on a CPU without it, or not built in";
    }
  }
  ASSERT_TRUE(onnxpool::set_cpu_variant_limit(CpuVariant::kNative).is_ok());
  EXPECT_EQ(onnxpool::active_cpu_variant(), best_supported());
}

TEST_F(CpuVariants, EverySupportedVariantMatchesReference) {
  std::string ran;
  for (CpuVariant variant : {CpuVariant::kAvx512, CpuVariant::kAvx2, CpuVariant::kBaseline}) {
    if (!available(variant)) continue;  // nothing of it can run here; the test above covers the fallback
    ASSERT_TRUE(onnxpool::set_cpu_variant_limit(variant).is_ok());
    ASSERT_EQ(onnxpool::active_cpu_variant(), variant);
    const BatchOutcome outcome = run_random_max_pool_cases(kStreamBase + static_cast<uint64_t>(level(variant)),
                                                           scaled_case_count(kCasesPerVariant), max_pool_types(), {1, 2, 3});
    EXPECT_TRUE(outcome.failures.empty()) << onnxpool::cpu_variant_name(variant) << ": " << outcome.report();
    ran += std::string(ran.empty() ? "" : " ") + onnxpool::cpu_variant_name(variant);
  }
  std::printf("onnxpool CPU variants run: %s\n", ran.c_str());
  RecordProperty("cpu_variants_run", ran);
  EXPECT_FALSE(ran.empty());
}

// AveragePool, LpPool and the global operators: each variant within the
// reference's tolerance (so every variant within tolerance of the others).
TEST_F(CpuVariants, EverySupportedVariantMatchesReferenceOnTheOtherOperators) {
  int variants_run = 0;
  for (CpuVariant variant : {CpuVariant::kAvx512, CpuVariant::kAvx2, CpuVariant::kBaseline}) {
    if (!available(variant)) continue;
    ASSERT_TRUE(onnxpool::set_cpu_variant_limit(variant).is_ok());
    ASSERT_EQ(onnxpool::active_cpu_variant(), variant);
    for (onnxpool::PoolOp op : sum_and_global_ops()) {
      const bool global = op != onnxpool::PoolOp::kAveragePool && op != onnxpool::PoolOp::kLpPool;
      const uint64_t stream = kStreamBase + 100 + static_cast<uint64_t>(level(variant)) * 16 + static_cast<uint64_t>(op);
      const BatchOutcome outcome =
          run_random_pool_cases(stream, scaled_case_count(kCasesPerVariantAndOperator), op, float_types(),
                                global ? std::vector<int>{1, 2, 3, 4} : std::vector<int>{1, 2, 3});
      EXPECT_TRUE(outcome.failures.empty())
          << onnxpool::cpu_variant_name(variant) << " " << onnxpool::op_name(op) << ": " << outcome.report();
    }
    ++variants_run;
  }
  EXPECT_GT(variants_run, 0);
}

TEST_F(CpuVariants, NamesAreDistinct) {
  const std::string names[] = {onnxpool::cpu_variant_name(CpuVariant::kNative),
                               onnxpool::cpu_variant_name(CpuVariant::kAvx512),
                               onnxpool::cpu_variant_name(CpuVariant::kAvx2),
                               onnxpool::cpu_variant_name(CpuVariant::kBaseline)};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_FALSE(names[i].empty());
    for (size_t j = 0; j < i; ++j) EXPECT_NE(names[i], names[j]);
  }
}

}  // namespace
}  // namespace onnxpool_test
