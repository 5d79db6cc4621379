#include "case_string.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace onnxpool_bench {

const char kCaseGrammar[] =
    "case strings: OP:SHAPE[:FIELD]...\n"
    "  OP     maxpool, averagepool, lppool, globalmaxpool, globalaveragepool, globallppool\n"
    "  SHAPE  NxCxD1[xD2[xD3]]   (global pools: any number of spatial axes)\n"
    "  FIELD  kK1xK2..  kernel_shape, one per spatial axis (windowed pools need it)\n"
    "         sS1xS2..  strides                      dD1xD2..  dilations\n"
    "         pB1xB2..xE1xE2..  pads: every axis's begin, then every axis's end\n"
    "         same_upper | same_lower | valid   auto_pad\n"
    "         ceil      ceil_mode = 1                cip       count_include_pad = 1\n"
    "         lpP       p of LpPool / GlobalLpPool (default 2)\n"
    "         f32 | f16 | bf16 | f64 | i8 | u8   element type (default f32; i8, u8: MaxPool)\n"
    "  e.g.   maxpool:1x64x112x112:k3x3:s2x2:p1x1x1x1\n"
    "         averagepool:1x192x28x28:k3x3:same_upper:cip\n"
    "         globalaveragepool:1x2048x7x7:f16\n";

namespace {

struct OpName {
  const char* token;
  const char* onnx_name;
  onnxpool::PoolOp op;
  bool global;
};

constexpr OpName kOps[] = {
    {"maxpool", "MaxPool", onnxpool::PoolOp::kMaxPool, false},
    {"averagepool", "AveragePool", onnxpool::PoolOp::kAveragePool, false},
    {"lppool", "LpPool", onnxpool::PoolOp::kLpPool, false},
    {"globalmaxpool", "GlobalMaxPool", onnxpool::PoolOp::kGlobalMaxPool, true},
    {"globalaveragepool", "GlobalAveragePool", onnxpool::PoolOp::kGlobalAveragePool, true},
    {"globallppool", "GlobalLpPool", onnxpool::PoolOp::kGlobalLpPool, true},
};

struct TypeName {
  const char* token;
  onnxpool::ElementType type;
};

constexpr TypeName kTypes[] = {
    {"f32", onnxpool::ElementType::kFloat32}, {"f16", onnxpool::ElementType::kFloat16},
    {"bf16", onnxpool::ElementType::kBFloat16}, {"f64", onnxpool::ElementType::kFloat64},
    {"i8", onnxpool::ElementType::kInt8},     {"u8", onnxpool::ElementType::kUInt8},
};

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts(1);
  for (char ch : text) {
    if (ch == separator) {
      parts.emplace_back();
    } else {
      parts.back() += ch;
    }
  }
  return parts;
}

// "3x3" -> {3, 3}: non-negative decimal integers joined by 'x'. Signs and
// out-of-range values are malformed here; onnxpool judges the values.
bool parse_ints(const std::string& text, std::vector<int64_t>* values) {
  values->clear();
  for (const std::string& part : split(text, 'x')) {
    if (part.empty() || part.size() > 18) return false;
    for (char ch : part) {
      if (!std::isdigit(static_cast<unsigned char>(ch))) return false;
    }
    values->push_back(std::strtoll(part.c_str(), nullptr, 10));
  }
  return true;
}

bool has_digits_after(const std::string& field, size_t prefix) {
  return field.size() > prefix && std::isdigit(static_cast<unsigned char>(field[prefix]));
}

bool malformed(const std::string& text, const std::string& why, std::string* error) {
  *error = "case '" + text + "': " + why + "\n" + kCaseGrammar;
  return false;
}

onnxpool::Attributes node_attributes(const CaseSpec& spec) {
  onnxpool::Attributes attributes;
  if (!spec.kernel_shape.empty()) attributes.set("kernel_shape", spec.kernel_shape);
  if (!spec.strides.empty()) attributes.set("strides", spec.strides);
  if (!spec.pads.empty()) attributes.set("pads", spec.pads);
  if (!spec.dilations.empty()) attributes.set("dilations", spec.dilations);
  if (!spec.auto_pad.empty()) attributes.set("auto_pad", spec.auto_pad);
  if (spec.ceil_mode) attributes.set("ceil_mode", int64_t{1});
  if (spec.count_include_pad) attributes.set("count_include_pad", int64_t{1});
  if (spec.op == onnxpool::PoolOp::kLpPool || spec.op == onnxpool::PoolOp::kGlobalLpPool) {
    attributes.set("p", spec.p);
  }
  return attributes;
}

}  // namespace

int64_t element_count(const std::vector<int64_t>& shape) {
  int64_t count = 1;
  for (int64_t d : shape) count *= d;
  return count;
}

namespace {

std::string json_ints(const std::vector<int64_t>& values) {
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i) text += (i ? ", " : "") + std::to_string(values[i]);
  return text + "]";
}

// Case strings hold only letters, digits, 'x', ':' and '_' once parsed, so
// nothing needs escaping but what a hostile string could carry.
std::string json_string(const std::string& text) {
  std::string quoted = "\"";
  for (char ch : text) {
    if (ch == '"' || ch == '\\') quoted += '\\';
    if (static_cast<unsigned char>(ch) >= 0x20) quoted += ch;
  }
  return quoted + "\"";
}

}  // namespace

std::string case_json(const CaseSpec& spec) {
  std::string attributes;
  const auto add = [&attributes](const char* name, const std::string& value) {
    attributes += std::string(attributes.empty() ? "" : ", ") + "\"" + name + "\": " + value;
  };
  if (!spec.kernel_shape.empty()) add("kernel_shape", json_ints(spec.kernel_shape));
  if (!spec.strides.empty()) add("strides", json_ints(spec.strides));
  if (!spec.pads.empty()) add("pads", json_ints(spec.pads));
  if (!spec.dilations.empty()) add("dilations", json_ints(spec.dilations));
  if (!spec.auto_pad.empty()) add("auto_pad", json_string(spec.auto_pad));
  if (spec.ceil_mode) add("ceil_mode", "1");
  if (spec.count_include_pad) add("count_include_pad", "1");
  if (spec.op == onnxpool::PoolOp::kLpPool || spec.op == onnxpool::PoolOp::kGlobalLpPool) {
    add("p", std::to_string(spec.p));
  }
  return "{\"text\": " + json_string(spec.text) + ", \"op\": \"" + spec.op_name + "\", \"shape\": " +
         json_ints(spec.shape) + ", \"type\": \"" + onnxpool::element_type_name(spec.type) + "\", \"attributes\": {" +
         attributes + "}, \"output_shape\": " + json_ints(spec.output_shape) + "}";
}

const char* case_type_name(onnxpool::ElementType type) {
  for (const TypeName& t : kTypes) {
    if (t.type == type) return t.token;
  }
  return "?";
}

bool parse_case_string(const std::string& text, CaseSpec* spec, std::string* error) {
  CaseSpec result;
  result.text = text;
  const std::vector<std::string> fields = split(text, ':');
  if (fields.size() < 2) return malformed(text, "needs at least OP:SHAPE", error);

  std::string op_token;
  for (char ch : fields[0]) op_token += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  const OpName* op = nullptr;
  for (const OpName& candidate : kOps) {
    if (op_token == candidate.token) op = &candidate;
  }
  if (op == nullptr) return malformed(text, "unknown operator '" + fields[0] + "'", error);
  result.op = op->op;
  result.op_name = op->onnx_name;
  result.global = op->global;

  if (!parse_ints(fields[1], &result.shape) || result.shape.size() < 3) {
    return malformed(text, "shape '" + fields[1] + "' is not NxCxD1[xD2...]", error);
  }

  bool type_given = false;
  for (size_t i = 2; i < fields.size(); ++i) {
    const std::string& field = fields[i];
    std::vector<int64_t>* list = nullptr;
    size_t prefix = 1;
    if (field == "ceil") {
      result.ceil_mode = true;
    } else if (field == "cip") {
      result.count_include_pad = true;
    } else if (field == "same_upper" || field == "same_lower" || field == "valid") {
      result.auto_pad = field == "valid" ? "VALID" : field == "same_upper" ? "SAME_UPPER" : "SAME_LOWER";
    } else if (field.rfind("lp", 0) == 0 && has_digits_after(field, 2)) {
      std::vector<int64_t> p;
      if (!parse_ints(field.substr(2), &p) || p.size() != 1) {
        return malformed(text, "'" + field + "' is not lpP with one integer P", error);
      }
      result.p = p[0];
    } else if (field[0] == 'k' && has_digits_after(field, 1)) {
      list = &result.kernel_shape;
    } else if (field[0] == 's' && has_digits_after(field, 1)) {
      list = &result.strides;
    } else if (field[0] == 'p' && has_digits_after(field, 1)) {
      list = &result.pads;
    } else if (field[0] == 'd' && has_digits_after(field, 1)) {
      list = &result.dilations;
    } else {
      const TypeName* type = nullptr;
      for (const TypeName& candidate : kTypes) {
        if (field == candidate.token) type = &candidate;
      }
      if (type == nullptr) return malformed(text, "unknown field '" + field + "'", error);
      if (type_given) return malformed(text, "more than one element type", error);
      type_given = true;
      result.type = type->type;
    }
    if (list != nullptr) {
      if (!list->empty()) return malformed(text, "'" + field.substr(0, 1) + "' given twice", error);
      if (!parse_ints(field.substr(prefix), list)) {
        return malformed(text, "'" + field + "' is not a letter and integers joined by 'x'", error);
      }
    }
  }

  // The node's own validity is onnxpool's to judge, with its ONNX names.
  onnxpool::Status status =
      onnxpool::PoolAttributes::parse(result.op, node_attributes(result), &result.attributes);
  if (status) status = onnxpool::infer_output_shape(result.attributes, result.shape, &result.output_shape);
  if (!status) {
    *error = "case '" + text + "': " + status.message();
    return false;
  }
  *spec = std::move(result);
  return true;
}

bool read_cases_file(const std::string& path, std::vector<std::string>* cases, std::string* error) {
  std::ifstream file(path);
  if (!file) {
    *error = "cannot open the cases file " + path + ": " + std::strerror(errno);
    return false;
  }
  std::vector<std::string> read;
  std::string line;
  for (int number = 1; std::getline(file, line); ++number) {
    std::istringstream words(line.substr(0, line.find('#')));
    std::string text;
    if (!(words >> text)) continue;
    CaseSpec spec;
    std::string why;
    if (!parse_case_string(text, &spec, &why)) {
      *error = path + ":" + std::to_string(number) + ": " + why;
      return false;
    }
    read.push_back(text);
  }
  // A read that failed (a directory, an I/O error) sets badbit; the end of the file only eofbit.
  if (file.bad() || !file.eof()) {
    *error = "cannot read the cases file " + path;
    return false;
  }
  if (read.empty()) {
    *error = "the cases file " + path + " has no case string";
    return false;
  }
  cases->insert(cases->end(), read.begin(), read.end());
  return true;
}

}  // namespace onnxpool_bench
