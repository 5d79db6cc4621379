// onnxpool_fuzz_seeds: writes the fuzzers' seed corpora (fuzz/corpus/).
//   onnxpool_fuzz_seeds api DIR
//       every hostile case (hostile_cases.cpp) as DIR/<name>
//   onnxpool_fuzz_seeds onnx DIR CASES...
//       every ONNX test case folder under each CASES folder, as a bundle
//       (case_bundle.h) DIR/<case name>, but those over 16 KiB: a fuzzer
//       mutates small inputs many times faster, and the large official
//       cases add no file structure the small ones lack
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "api_case.h"
#include "case_bundle.h"
#include "hostile_cases.h"

namespace fs = std::filesystem;

namespace {

constexpr size_t kMaxBundleBytes = 16 * 1024;

bool write(const fs::path& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) std::fprintf(stderr, "cannot write %s\n", path.c_str());
  return static_cast<bool>(out);
}

int usage() {
  std::fprintf(stderr, "usage: onnxpool_fuzz_seeds api DIR | onnxpool_fuzz_seeds onnx DIR CASES...\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return usage();
  const std::string kind = argv[1];
  const fs::path dir = argv[2];
  fs::create_directories(dir);
  size_t written = 0, skipped = 0;
  if (kind == "api" && argc == 3) {
    for (const onnxpool_fuzz::HostileCase& c : onnxpool_fuzz::hostile_cases()) {
      if (!write(dir / c.name, onnxpool_fuzz::encode_api_case(c.call))) return 1;
      ++written;
    }
  } else if (kind == "onnx" && argc > 3) {
    for (int i = 3; i < argc; ++i) {
      for (const fs::directory_entry& entry : fs::directory_iterator(argv[i])) {
        if (!fs::exists(entry.path() / "model.onnx")) continue;
        onnxpool_fuzz::CaseBundle bundle;
        std::string error;
        if (!onnxpool_fuzz::read_case_bundle(entry.path(), &bundle, &error)) {
          std::fprintf(stderr, "%s\n", error.c_str());
          return 1;
        }
        const std::vector<uint8_t> bytes = onnxpool_fuzz::encode_case_bundle(bundle);
        if (bytes.size() > kMaxBundleBytes) {
          ++skipped;
          continue;
        }
        if (!write(dir / entry.path().filename(), bytes)) return 1;
        ++written;
      }
    }
  } else {
    return usage();
  }
  std::printf("wrote %zu seeds to %s (%zu cases over %zu bytes left out)\n", written, dir.c_str(), skipped,
              kMaxBundleBytes);
  return 0;
}
