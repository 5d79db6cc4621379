// onnxpool_test_runner: runs ONNX backend test case folders through onnxpool,
// like onnxruntime's onnx_test_runner, and prints one PASS/FAIL line per case.
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "case_files.h"
#include "case_runner.h"
#include "onnxpool/pooling.h"

namespace {

constexpr int kExitAllPassed = 0;
constexpr int kExitSomeFailed = 1;
constexpr int kExitUsage = 2;

void print_usage(std::FILE* stream) {
  std::fprintf(stream,
               "usage: onnxpool_test_runner [--device cpu|opencl|cuda] [--output-dir DIR] PATH...\n"
               "\n"
               "PATH is one ONNX backend test case folder (model.onnx and\n"
               "test_data_set_N/{input,output}_K.pb) or a folder of such folders,\n"
               "run in name order. Prints PASS <case> or FAIL <case>: <reason> for\n"
               "each, then 'N passed, M failed'. Exits 1 if any case failed.\n"
               "\n"
               "  --device NAME     where the kernels run: cpu (the default), or a GPU\n"
               "                    through opencl or cuda (a build with those targets\n"
               "                    and a driver); tensors stay in host memory\n"
               "  --output-dir DIR  also write what onnxpool computed to\n"
               "                    DIR/<case>/test_data_set_N/output_K.pb, with the\n"
               "                    model and inputs, as a runnable case folder\n");
}

struct Arguments {
  onnxpool::Backend backend = onnxpool::Backend::kCpu;
  std::filesystem::path output_dir;
  std::vector<std::filesystem::path> paths;
};

bool parse_backend(const std::string& name, onnxpool::Backend* backend) {
  for (onnxpool::Backend b : {onnxpool::Backend::kCpu, onnxpool::Backend::kOpenCL, onnxpool::Backend::kCuda}) {
    if (name == onnxpool::backend_name(b)) {
      *backend = b;
      return true;
    }
  }
  std::fprintf(stderr, "onnxpool_test_runner: --device must be cpu, opencl or cuda, got '%s'\n", name.c_str());
  return false;
}

// Returns -1 when the arguments are fine, else the exit code to stop with.
int parse_arguments(int argc, char** argv, Arguments* arguments) {
  bool options_done = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (!options_done && (arg == "-h" || arg == "--help")) {
      print_usage(stdout);
      return kExitAllPassed;
    }
    if (!options_done && arg == "--") {
      options_done = true;
    } else if (!options_done && arg == "--output-dir") {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "onnxpool_test_runner: --output-dir needs a folder\n");
        return kExitUsage;
      }
      arguments->output_dir = argv[++i];
    } else if (!options_done && arg == "--device") {
      if (i + 1 >= argc || !parse_backend(argv[++i], &arguments->backend)) return kExitUsage;
    } else if (!options_done && arg.rfind("--device=", 0) == 0) {
      if (!parse_backend(arg.substr(std::strlen("--device=")), &arguments->backend)) return kExitUsage;
    } else if (!options_done && arg.rfind("--output-dir=", 0) == 0) {
      arguments->output_dir = arg.substr(std::strlen("--output-dir="));
    } else if (!options_done && arg.size() > 1 && arg[0] == '-') {
      std::fprintf(stderr, "onnxpool_test_runner: unknown option %s\n", arg.c_str());
      print_usage(stderr);
      return kExitUsage;
    } else {
      arguments->paths.emplace_back(arg);
    }
  }
  if (arguments->paths.empty()) {
    print_usage(stderr);
    return kExitUsage;
  }
  return -1;
}

}  // namespace

int main(int argc, char** argv) {
  Arguments arguments;
  const int stop = parse_arguments(argc, argv, &arguments);
  if (stop >= 0) return stop;

  const onnxpool::Status backend_set = onnxpool::set_backend(arguments.backend);
  if (!backend_set) {
    std::fprintf(stderr, "onnxpool_test_runner: --device %s: %s\n", onnxpool::backend_name(arguments.backend),
                 backend_set.message().c_str());
    return kExitUsage;
  }
  onnxpool_runner::RunOptions options;
  options.output_dir = arguments.output_dir;
  size_t passed = 0;
  size_t failed = 0;
  for (const std::filesystem::path& path : arguments.paths) {
    const onnxpool_runner::CaseList cases = onnxpool_runner::find_cases(path);
    if (!cases.error.empty()) {
      // A PATH that names no case counts as a failure, so a typo cannot pass.
      std::printf("FAIL %s: %s\n", path.string().c_str(), cases.error.c_str());
      ++failed;
      continue;
    }
    for (const std::filesystem::path& case_dir : cases.case_dirs) {
      const onnxpool_runner::CaseResult result = onnxpool_runner::run_case(case_dir, options);
      const std::string note = result.note.empty() ? "" : " [" + result.note + "]";
      if (result.passed) {
        std::printf("PASS %s%s\n", result.name.c_str(), note.c_str());
        ++passed;
      } else {
        std::printf("FAIL %s: %s%s\n", result.name.c_str(), result.reason.c_str(), note.c_str());
        ++failed;
      }
      std::fflush(stdout);
    }
  }
  std::printf("%zu passed, %zu failed\n", passed, failed);
  return failed == 0 ? kExitAllPassed : kExitSomeFailed;
}
