// Runs one backend test case folder through onnxpool and judges it.
#pragma once

#include <filesystem>
#include <string>

namespace onnxpool_runner {

struct RunOptions {
  // When set, what onnxpool computed is written to output_dir/<case>/ as a
  // runnable case: model.onnx, the inputs, and output_K.pb from onnxpool.
  std::filesystem::path output_dir;
};

struct CaseResult {
  std::string name;
  bool passed = false;
  std::string reason;  // why it failed, one line
  std::string note;    // set when the case is judged with a tolerance override
};

CaseResult run_case(const std::filesystem::path& case_dir, const RunOptions& options);

}  // namespace onnxpool_runner
