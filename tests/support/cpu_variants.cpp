#include "support/cpu_variants.h"

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

int on_each_cpu_variant(const std::function<void(onnxpool::CpuVariant)>& body) {
  int ran = 0;
  for (onnxpool::CpuVariant variant : runnable_cpu_variants()) {
    if (!onnxpool::set_cpu_variant_limit(variant)) {
      ADD_FAILURE() << "cannot limit the runtime to " << onnxpool::cpu_variant_name(variant);
      continue;
    }
    body(variant);
    ++ran;
  }
  EXPECT_TRUE(onnxpool::set_cpu_variant_limit(onnxpool::CpuVariant::kNative));
  return ran;
}

void record_variant_case(BatchOutcome* outcome, onnxpool::CpuVariant variant, const std::string& description,
                         const testing::AssertionResult& result) {
  ++outcome->cases_run;
  if (!result) {
    outcome->add_failure(std::string(onnxpool::cpu_variant_name(variant)) + ": " + description + "\n  " +
                         result.message());
  }
}

}  // namespace onnxpool_test
