#include "case_files.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <system_error>

namespace onnxpool_runner {

namespace fs = std::filesystem;

namespace {

constexpr const char kModelFile[] = "model.onnx";
constexpr const char kDataSetPrefix[] = "test_data_set_";

// Parses `<prefix><digits><suffix>`; false for any other name.
bool numbered_name(const std::string& name, const std::string& prefix, const std::string& suffix,
                   size_t* number) {
  if (name.size() <= prefix.size() + suffix.size()) return false;
  if (name.compare(0, prefix.size(), prefix) != 0) return false;
  if (name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) return false;
  const std::string digits = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
  if (digits.size() > 9 || !std::all_of(digits.begin(), digits.end(), [](char c) {
        return c >= '0' && c <= '9';
      })) {
    return false;
  }
  *number = static_cast<size_t>(std::stoul(digits));
  return true;
}

bool holds_case(const fs::path& dir) {
  std::error_code ec;
  if (fs::is_regular_file(dir / kModelFile, ec)) return true;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    size_t number;
    if (it->is_directory(ec) &&
        numbered_name(it->path().filename().string(), kDataSetPrefix, "", &number)) {
      return true;
    }
  }
  return false;
}

// Files named <prefix>K.pb in `dir`, ordered by K, which must be 0..n-1.
bool numbered_files(const fs::path& dir, const std::string& prefix, std::vector<fs::path>* files,
                    std::string* error) {
  std::map<size_t, fs::path> by_number;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    size_t number;
    if (numbered_name(it->path().filename().string(), prefix, ".pb", &number)) {
      by_number[number] = it->path();
    }
  }
  if (ec) {
    *error = "cannot list " + dir.string() + ": " + ec.message();
    return false;
  }
  files->clear();
  for (const auto& [number, path] : by_number) {
    if (number != files->size()) {
      *error = dir.filename().string() + " has no " + prefix + std::to_string(files->size()) +
               ".pb but has " + path.filename().string();
      return false;
    }
    files->push_back(path);
  }
  return true;
}

}  // namespace

CaseList find_cases(const fs::path& path) {
  CaseList list;
  std::error_code ec;
  if (!fs::is_directory(path, ec)) {
    list.error = fs::exists(path, ec) ? "not a folder" : "no such folder";
    return list;
  }
  if (holds_case(path)) {
    list.case_dirs.push_back(path);
    return list;
  }
  for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_directory(ec) && holds_case(it->path())) list.case_dirs.push_back(it->path());
  }
  if (ec) {
    list.error = "cannot list the folder: " + ec.message();
    list.case_dirs.clear();
    return list;
  }
  std::sort(list.case_dirs.begin(), list.case_dirs.end(),
            [](const fs::path& a, const fs::path& b) { return a.filename() < b.filename(); });
  if (list.case_dirs.empty()) {
    list.error = "holds no test case (no model.onnx or test_data_set_N in it or its subfolders)";
  }
  return list;
}

std::string case_name(const fs::path& case_dir) {
  fs::path normal = case_dir.lexically_normal();
  if (!normal.has_filename()) normal = normal.parent_path();  // "dir/" -> "dir"
  std::string name = normal.filename().string();
  if (name.empty() || name == "." || name == "..") {
    std::error_code ec;
    const fs::path absolute = fs::weakly_canonical(case_dir, ec);
    if (!ec && absolute.has_filename()) name = absolute.filename().string();
  }
  return name;
}

bool list_data_sets(const fs::path& case_dir, std::vector<DataSetFiles>* data_sets,
                    std::string* error) {
  std::map<size_t, fs::path> by_number;
  std::error_code ec;
  for (fs::directory_iterator it(case_dir, ec), end; !ec && it != end; it.increment(ec)) {
    size_t number;
    if (it->is_directory(ec) &&
        numbered_name(it->path().filename().string(), kDataSetPrefix, "", &number)) {
      by_number[number] = it->path();
    }
  }
  if (ec) {
    *error = "cannot list the case folder: " + ec.message();
    return false;
  }
  if (by_number.empty()) {
    *error = "no test_data_set_N folder";
    return false;
  }
  data_sets->clear();
  for (const auto& [number, dir] : by_number) {
    DataSetFiles files;
    files.name = dir.filename().string();
    files.dir = dir;
    if (!numbered_files(dir, "input_", &files.inputs, error) ||
        !numbered_files(dir, "output_", &files.outputs, error)) {
      return false;
    }
    data_sets->push_back(std::move(files));
  }
  return true;
}

bool read_file(const fs::path& path, std::string* bytes, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = "cannot open " + path.string() + ": " + std::strerror(errno);
    return false;
  }
  std::ostringstream contents;
  contents << in.rdbuf();
  if (in.bad()) {
    *error = "cannot read " + path.string();
    return false;
  }
  *bytes = contents.str();
  return true;
}

bool write_file(const fs::path& path, const std::string& bytes, std::string* error) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (ec) {
    *error = "cannot create " + path.parent_path().string() + ": " + ec.message();
    return false;
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) {
    *error = "cannot write " + path.string();
    return false;
  }
  return true;
}

bool load_tensor_file(const fs::path& path, HostTensor* tensor, std::string* name,
                      std::string* error) {
  std::string bytes;
  if (!read_file(path, &bytes, error)) return false;
  onnx::TensorProto proto;
  std::string problem;
  if (!parse_tensor(bytes, &proto, &problem) ||
      !tensor_from_proto(proto, tensor, &problem)) {
    *error = path.filename().string() + ": " + problem;
    return false;
  }
  *name = proto.name();
  return true;
}

}  // namespace onnxpool_runner
