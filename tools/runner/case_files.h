// The on-disk layout of ONNX backend test cases:
//   <case>/model.onnx
//   <case>/test_data_set_<N>/input_<K>.pb, output_<K>.pb
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "host_tensor.h"

namespace onnxpool_runner {

struct DataSetFiles {
  std::string name;  // "test_data_set_0"
  std::filesystem::path dir;
  std::vector<std::filesystem::path> inputs;   // input_0.pb, input_1.pb, ...
  std::vector<std::filesystem::path> outputs;  // output_0.pb, ...
};

// A command-line PATH resolved to case folders: PATH itself when it holds a
// case, else its subfolders that do, sorted by name. `error` is set, and the
// list empty, when PATH is missing or holds no case.
struct CaseList {
  std::vector<std::filesystem::path> case_dirs;
  std::string error;
};
CaseList find_cases(const std::filesystem::path& path);

// The case's name: its folder's name.
std::string case_name(const std::filesystem::path& case_dir);

// The test_data_set_<N> folders of a case, in numeric order of N, each with
// its input_<K>.pb and output_<K>.pb files; K must run 0, 1, ... without gaps.
bool list_data_sets(const std::filesystem::path& case_dir, std::vector<DataSetFiles>* data_sets,
                    std::string* error);

bool read_file(const std::filesystem::path& path, std::string* bytes, std::string* error);
bool write_file(const std::filesystem::path& path, const std::string& bytes, std::string* error);

// Reads and decodes one input_K.pb / output_K.pb; `name` gets the tensor's name.
bool load_tensor_file(const std::filesystem::path& path, HostTensor* tensor, std::string* name,
                      std::string* error);

}  // namespace onnxpool_runner
