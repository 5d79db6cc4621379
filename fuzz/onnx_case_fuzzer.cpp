// libFuzzer entry point of onnx_case_fuzzer: bytes -> a case folder
// (case_bundle.h) -> the conformance runner's run_case, the code that reads
// untrusted model.onnx and .pb files. It must return a result (pass or a
// one-line reason) for every input: a crash, a sanitizer report, a hang or a
// leak is the finding. The folder lives under TMPDIR (/dev/shm when there
// is one: it is rewritten for every input).
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "case_bundle.h"
#include "case_runner.h"

namespace {

namespace fs = std::filesystem;

// Never destroyed: the atexit handler that removes it runs after static
// destructors registered later.
const fs::path& case_dir() {
  static const fs::path* const dir = [] {
    const char* tmp = std::getenv("TMPDIR");
    const fs::path base = tmp != nullptr ? fs::path(tmp) : fs::exists("/dev/shm") ? fs::path("/dev/shm") : fs::path("/tmp");
    return new fs::path(base / ("onnxpool_onnx_case_fuzzer." + std::to_string(getpid())) / "case");
  }();
  return *dir;
}

void remove_case_dir() {
  std::error_code ec;
  fs::remove_all(case_dir().parent_path(), ec);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  std::atexit(remove_case_dir);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const onnxpool_fuzz::CaseBundle bundle = onnxpool_fuzz::decode_case_bundle(data, size);
  std::string error;
  if (!onnxpool_fuzz::write_case_bundle(bundle, case_dir(), &error)) {
    std::fprintf(stderr, "onnx_case_fuzzer: %s\n", error.c_str());
    std::abort();
  }
  const onnxpool_runner::CaseResult result = onnxpool_runner::run_case(case_dir(), {});
  // A failing case must say why, on one line.
  if (!result.passed && (result.reason.empty() || result.reason.find('\n') != std::string::npos)) {
    std::fprintf(stderr, "onnx_case_fuzzer: a failed case without a one-line reason: '%s'\n", result.reason.c_str());
    std::abort();
  }
  return 0;
}
