// One ONNX backend test case (model.onnx and one data set of .pb tensors)
// as a single byte string, the unit onnx_case_fuzzer mutates:
//   u8 input count, u8 output count (each taken modulo 5), then the model,
//   the inputs and the outputs, each as a u32 little-endian length and that
//   many bytes. A length past the end takes what is left; missing sections
//   are empty files. Any byte string is a bundle.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace onnxpool_fuzz {

struct CaseBundle {
  std::string model;
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
};

CaseBundle decode_case_bundle(const uint8_t* data, size_t size);
std::vector<uint8_t> encode_case_bundle(const CaseBundle& bundle);

// The case folder's model.onnx and test_data_set_0's files; false (and
// `error`) when they cannot be read.
bool read_case_bundle(const std::filesystem::path& case_dir, CaseBundle* bundle, std::string* error);
// Writes the bundle as a case folder the runner reads (replacing its files).
bool write_case_bundle(const CaseBundle& bundle, const std::filesystem::path& case_dir, std::string* error);

}  // namespace onnxpool_fuzz
