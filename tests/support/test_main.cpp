// main() of the library's tests: GoogleTest, on the backend named by
// ONNXPOOL_TEST_BACKEND (cpu, the default; opencl; cuda). A backend this
// build or machine cannot run fails the run rather than falling back, so a
// GPU test can never pass on the CPU.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "onnxpool/pooling.h"

namespace {

bool apply_test_backend() {
  const char* text = std::getenv("ONNXPOOL_TEST_BACKEND");
  const std::string name = text != nullptr && *text != '\0' ? text : "cpu";
  for (onnxpool::Backend backend : {onnxpool::Backend::kCpu, onnxpool::Backend::kOpenCL, onnxpool::Backend::kCuda}) {
    if (name != onnxpool::backend_name(backend)) continue;
    const onnxpool::Status status = onnxpool::set_backend(backend);
    if (!status) {
      std::fprintf(stderr, "ONNXPOOL_TEST_BACKEND=%s: %s\n", name.c_str(), status.message().c_str());
      return false;
    }
    std::printf("onnxpool tests: ONNXPOOL_TEST_BACKEND=%s\n", name.c_str());
    return true;
  }
  std::fprintf(stderr, "ONNXPOOL_TEST_BACKEND must be cpu, opencl or cuda, got '%s'\n", name.c_str());
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  if (!apply_test_backend()) return 1;
  return RUN_ALL_TESTS();
}
