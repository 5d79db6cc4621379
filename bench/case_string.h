// One pooling node written as one string, in the manner of oneDNN's benchdnn
// problem descriptors, e.g.
//   maxpool:1x64x112x112:k3x3:s2x2:p1x1x1x1
//   globalaveragepool:1x2048x7x7:f16
// so users can benchmark (and tune) their own shapes. kCaseGrammar is the
// grammar; bench/README.md documents it with examples.
#pragma once

#include <onnxpool/onnxpool.h>

#include <cstdint>
#include <string>
#include <vector>

namespace onnxpool_bench {

extern const char kCaseGrammar[];

struct CaseSpec {
  std::string text;           // the string as given
  onnxpool::PoolOp op = onnxpool::PoolOp::kMaxPool;
  const char* op_name = "";   // ONNX operator name, "MaxPool", ...
  bool global = false;
  std::vector<int64_t> shape; // N, C, spatial...
  onnxpool::ElementType type = onnxpool::ElementType::kFloat32;
  // Attributes as the string gave them; empty (or "", false) where it did not.
  std::vector<int64_t> kernel_shape, strides, pads, dilations;
  std::string auto_pad;
  bool ceil_mode = false;
  bool count_include_pad = false;
  int64_t p = 2;              // LpPool / GlobalLpPool; 2 unless given
  // Validated by onnxpool itself (PoolAttributes::parse, infer_output_shape).
  onnxpool::PoolAttributes attributes;
  std::vector<int64_t> output_shape;

  size_t spatial_rank() const { return shape.size() - 2; }
};

// Parses and validates `text`. On failure *error says what is wrong with it:
// a malformed string gets the grammar, an invalid node onnxpool's message,
// which names the ONNX attribute at fault.
bool parse_case_string(const std::string& text, CaseSpec* spec, std::string* error);

// Appends the case strings of a cases file (e.g. bench/models/torchvision.txt): on each line,
// text from '#' on is a comment and the first whitespace-separated word of the rest, if any, is a
// case string. False, with *error naming the file (and the line of a string parse_case_string
// refuses), for a file that cannot be read or holds no case; *cases is then left as it was.
bool read_cases_file(const std::string& path, std::vector<std::string>* cases, std::string* error);

// The number of elements of `shape` (bytes per element: onnxpool::element_size).
int64_t element_count(const std::vector<int64_t>& shape);

// The parsed case as one line of JSON, for bench/python_peers.py, which takes
// the same strings through onnxpool_bench --describe_cases instead of parsing
// them a second way: {"text", "op", "shape", "type" (float32, float16, ...),
// "attributes" (the ONNX attributes the string gave), "output_shape"}.
std::string case_json(const CaseSpec& spec);

// The short name of an element type in case strings: f32, f16, bf16, f64, i8, u8.
const char* case_type_name(onnxpool::ElementType type);

}  // namespace onnxpool_bench
