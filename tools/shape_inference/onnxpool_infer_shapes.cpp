// onnxpool_infer_shapes: onnxpool's attribute parsing and shape inference
// for many nodes at once, for tools/shape_inference/shape_differential.py,
// which compares them with ONNX's own shape inference.
//
// One node per input line, fields separated by spaces:
//   OP DIMS [NAME=KIND:VALUE ...]
//   OP     MaxPool, AveragePool, LpPool, GlobalMaxPool, GlobalAveragePool, GlobalLpPool
//   DIMS   the input shape, comma-separated (N,C,D1,...)
//   KIND   int (one integer), ints (comma-separated, possibly empty), str
// One output line per input line:
//   ok DIMS PADS          the output shape and the pads used (ONNX pads order)
//   kInvalidArgument|kUnsupported|kInternal MESSAGE   (the tests' code_name)
//   bad_line MESSAGE      the line itself is malformed (a script bug)
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "onnxpool/onnxpool.h"
#include "support/status_checks.h"

namespace {

bool parse_int(const std::string& text, int64_t* value) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || end == nullptr || *end != '\0') return false;
  *value = v;
  return true;
}

bool parse_ints(const std::string& text, std::vector<int64_t>* values) {
  values->clear();
  if (text.empty()) return true;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ',')) {
    int64_t v = 0;
    if (!parse_int(item, &v)) return false;
    values->push_back(v);
  }
  return true;
}

std::string join(const std::vector<int64_t>& values) {
  std::string text;
  for (size_t i = 0; i < values.size(); ++i) text += (i ? "," : "") + std::to_string(values[i]);
  return text.empty() ? "-" : text;
}

bool op_of(const std::string& name, onnxpool::PoolOp* op) {
  for (onnxpool::PoolOp candidate :
       {onnxpool::PoolOp::kMaxPool, onnxpool::PoolOp::kAveragePool, onnxpool::PoolOp::kLpPool,
        onnxpool::PoolOp::kGlobalMaxPool, onnxpool::PoolOp::kGlobalAveragePool, onnxpool::PoolOp::kGlobalLpPool}) {
    if (name == onnxpool::op_name(candidate)) {
      *op = candidate;
      return true;
    }
  }
  return false;
}

// The answer for one line.
std::string infer(const std::string& line) {
  std::stringstream fields(line);
  std::string op_text, dims_text, field;
  fields >> op_text >> dims_text;
  onnxpool::PoolOp op;
  std::vector<int64_t> shape;
  if (!op_of(op_text, &op)) return "bad_line unknown operator '" + op_text + "'";
  if (!parse_ints(dims_text, &shape)) return "bad_line bad shape '" + dims_text + "'";
  onnxpool::Attributes attributes;
  while (fields >> field) {
    const size_t eq = field.find('='), colon = field.find(':', eq);
    if (eq == std::string::npos || colon == std::string::npos) return "bad_line bad attribute '" + field + "'";
    const std::string name = field.substr(0, eq), kind = field.substr(eq + 1, colon - eq - 1),
                      value = field.substr(colon + 1);
    int64_t i = 0;
    std::vector<int64_t> ints;
    if (kind == "int" && parse_int(value, &i)) {
      attributes.set(name, i);
    } else if (kind == "ints" && parse_ints(value, &ints)) {
      attributes.set(name, std::move(ints));
    } else if (kind == "str") {
      attributes.set(name, value);
    } else {
      return "bad_line bad attribute '" + field + "'";
    }
  }
  onnxpool::PoolAttributes parsed;
  onnxpool::Status status = onnxpool::PoolAttributes::parse(op, attributes, &parsed);
  std::vector<int64_t> output, pads;
  if (status) status = onnxpool::infer_output_shape(parsed, shape, &output);
  if (status && !parsed.kernel_shape.empty()) status = onnxpool::resolve_pads(parsed, shape, &pads);
  if (!status) {
    std::string message = status.message();
    for (char& c : message) c = c == '\n' ? ' ' : c;
    return std::string(onnxpool_test::code_name(status.code())) + " " + message;
  }
  return "ok " + join(output) + " " + join(pads);
}

}  // namespace

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    std::cout << infer(line) << '\n';
  }
  return std::cout ? 0 : 1;
}
