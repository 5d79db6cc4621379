// libFuzzer entry point of api_fuzzer: bytes -> one API call (api_case.h),
// checked as api_check.h says. A failed check aborts, which libFuzzer
// reports as a crash and saves the input.
#include <cstdio>
#include <cstdlib>

#include "api_case.h"
#include "api_check.h"

namespace {

onnxpool_fuzz::CheckCounts counts;

void print_counts() { std::fprintf(stderr, "api_fuzzer: %s\n", counts.summary().c_str()); }

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  std::atexit(print_counts);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const onnxpool_fuzz::ApiCase c = onnxpool_fuzz::decode_api_case(data, size);
  const std::string failure = onnxpool_fuzz::check_api_case(c, &counts);
  if (!failure.empty()) {
    std::fprintf(stderr, "api_fuzzer: %s\n", failure.c_str());
    std::abort();
  }
  return 0;
}
