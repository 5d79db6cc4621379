// The x86 kernel variants this machine runs, for tests that repeat their
// cases on each (the runtime's own dispatch decides; cpu_variant_test checks
// that decision against the CPU's features independently).
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "onnxpool/pooling.h"
#include "support/batch_outcome.h"

namespace onnxpool_test {

// Every variant set_cpu_variant_limit can make active here, best first
// (elsewhere than x86-64 only the baseline). Leaves the limit at kNative.
std::vector<onnxpool::CpuVariant> runnable_cpu_variants();

// Runs body(variant) once for each variant of runnable_cpu_variants(), the
// runtime limited to that variant, then lifts the limit. Returns how many
// variants ran, for the caller's count of the cases it expects.
int on_each_cpu_variant(const std::function<void(onnxpool::CpuVariant)>& body);

// Counts one case run on `variant`; a failed one is kept, named by the
// variant and the case's description.
void record_variant_case(BatchOutcome* outcome, onnxpool::CpuVariant variant, const std::string& description,
                         const testing::AssertionResult& result);

}  // namespace onnxpool_test
