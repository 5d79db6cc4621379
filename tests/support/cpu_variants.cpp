#include "support/cpu_variants.h"

#include <gtest/gtest.h>

namespace onnxpool_test {

std::vector<onnxpool::CpuVariant> runnable_cpu_variants() {
  std::vector<onnxpool::CpuVariant> variants;
  for (onnxpool::CpuVariant v :
       {onnxpool::CpuVariant::kAvx512, onnxpool::CpuVariant::kAvx2, onnxpool::CpuVariant::kBaseline}) {
    EXPECT_TRUE(onnxpool::set_cpu_variant_limit(v));
    if (onnxpool::active_cpu_variant() == v) variants.push_back(v);
  }
  EXPECT_TRUE(onnxpool::set_cpu_variant_limit(onnxpool::CpuVariant::kNative));
  return variants;
}

}  // namespace onnxpool_test
