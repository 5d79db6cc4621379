#include "case_bundle.h"

#include <algorithm>
#include <system_error>

#include "case_files.h"

namespace onnxpool_fuzz {

namespace fs = std::filesystem;

namespace {

constexpr size_t kMaxFiles = 5;

class Reader {
 public:
  Reader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint8_t byte() { return position_ < size_ ? data_[position_++] : 0; }
  std::string section() {
    uint32_t length = 0;
    for (int i = 0; i < 4; ++i) length |= uint32_t{byte()} << (8 * i);
    const size_t n = std::min<size_t>(length, size_ - position_);
    std::string s(reinterpret_cast<const char*>(data_ + position_), n);
    position_ += n;
    return s;
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t position_ = 0;
};

void put_section(const std::string& bytes, std::vector<uint8_t>* out) {
  const uint32_t length = static_cast<uint32_t>(bytes.size());
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<uint8_t>(length >> (8 * i)));
  out->insert(out->end(), bytes.begin(), bytes.end());
}

}  // namespace

CaseBundle decode_case_bundle(const uint8_t* data, size_t size) {
  Reader in(data, size);
  CaseBundle bundle;
  const size_t input_count = in.byte() % kMaxFiles;
  const size_t output_count = in.byte() % kMaxFiles;
  bundle.model = in.section();
  for (size_t k = 0; k < input_count; ++k) bundle.inputs.push_back(in.section());
  for (size_t k = 0; k < output_count; ++k) bundle.outputs.push_back(in.section());
  return bundle;
}

std::vector<uint8_t> encode_case_bundle(const CaseBundle& bundle) {
  std::vector<uint8_t> out = {static_cast<uint8_t>(bundle.inputs.size()), static_cast<uint8_t>(bundle.outputs.size())};
  put_section(bundle.model, &out);
  for (const std::string& input : bundle.inputs) put_section(input, &out);
  for (const std::string& output : bundle.outputs) put_section(output, &out);
  return out;
}

bool read_case_bundle(const fs::path& case_dir, CaseBundle* bundle, std::string* error) {
  *bundle = CaseBundle();
  if (!onnxpool_runner::read_file(case_dir / "model.onnx", &bundle->model, error)) return false;
  const fs::path data_set = case_dir / "test_data_set_0";
  for (const char* kind : {"input", "output"}) {
    std::vector<std::string>& files = std::string(kind) == "input" ? bundle->inputs : bundle->outputs;
    for (size_t k = 0;; ++k) {
      const fs::path path = data_set / (std::string(kind) + "_" + std::to_string(k) + ".pb");
      if (!fs::exists(path)) break;
      if (k + 1 >= kMaxFiles) {
        *error = case_dir.string() + " has more " + kind + " files than a bundle holds";
        return false;
      }
      std::string bytes;
      if (!onnxpool_runner::read_file(path, &bytes, error)) return false;
      files.push_back(std::move(bytes));
    }
  }
  return true;
}

bool write_case_bundle(const CaseBundle& bundle, const fs::path& case_dir, std::string* error) {
  std::error_code ec;
  fs::remove_all(case_dir, ec);
  const fs::path data_set = case_dir / "test_data_set_0";
  fs::create_directories(data_set, ec);
  if (ec) {
    *error = "cannot create " + data_set.string() + ": " + ec.message();
    return false;
  }
  if (!onnxpool_runner::write_file(case_dir / "model.onnx", bundle.model, error)) return false;
  for (size_t k = 0; k < bundle.inputs.size(); ++k) {
    if (!onnxpool_runner::write_file(data_set / ("input_" + std::to_string(k) + ".pb"), bundle.inputs[k], error)) return false;
  }
  for (size_t k = 0; k < bundle.outputs.size(); ++k) {
    if (!onnxpool_runner::write_file(data_set / ("output_" + std::to_string(k) + ".pb"), bundle.outputs[k], error)) return false;
  }
  return true;
}

}  // namespace onnxpool_fuzz
