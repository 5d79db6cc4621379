// ONNX pooling attributes: built from name/value pairs the way an ONNX runtime
// hands them over, validated, with the ONNX opset-22 defaults filled in.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "onnxpool/status.h"

namespace onnxpool {

enum class PoolOp {
  kMaxPool,
  kAveragePool,
  kLpPool,
  kGlobalMaxPool,
  kGlobalAveragePool,
  kGlobalLpPool,
};

// ONNX operator name ("MaxPool", ...).
const char* op_name(PoolOp op);

enum class AutoPad { kNotSet, kSameUpper, kSameLower, kValid };

// Raw ONNX attributes, as name -> value. Setting a name twice keeps the last value.
class Attributes {
 public:
  Attributes& set(const std::string& name, int64_t value);
  Attributes& set(const std::string& name, std::vector<int64_t> values);
  Attributes& set(const std::string& name, std::string value);
  Attributes& set(const std::string& name, const char* value) { return set(name, std::string(value)); }
  Attributes& set(const std::string& name, float value);

  enum class Kind { kInt, kInts, kString, kFloat };
  struct Entry {
    std::string name;
    Kind kind;
    int64_t i = 0;
    std::vector<int64_t> ints;
    std::string s;
    float f = 0.0f;
  };
  const std::vector<Entry>& entries() const { return entries_; }

 private:
  Entry& slot(const std::string& name);
  std::vector<Entry> entries_;
};

// Validated attributes of one pooling node. Shape-independent checks happen in
// `parse`; checks that need the input shape happen in `infer_output_shape`.
struct PoolAttributes {
  PoolOp op = PoolOp::kMaxPool;
  std::vector<int64_t> kernel_shape;  // empty for the global ops
  std::vector<int64_t> strides;       // filled with 1s when absent
  std::vector<int64_t> dilations;     // filled with 1s when absent
  std::vector<int64_t> pads;          // [x1_begin, x2_begin, ..., x1_end, ...]; 0s when absent
  AutoPad auto_pad = AutoPad::kNotSet;
  bool ceil_mode = false;
  int64_t storage_order = 0;        // MaxPool Indices: 0 row-major, 1 column-major
  bool count_include_pad = false;   // AveragePool
  int64_t p = 2;                    // LpPool, GlobalLpPool

  // Builds and validates. Unknown names, wrong value kinds and out-of-range
  // values are errors naming the attribute.
  static Status parse(PoolOp op, const Attributes& attributes, PoolAttributes* out);
};

// Output shape for `input_shape` ([N, C, D1, ...]); validates everything that
// depends on the input shape (rank, padded size, overflow).
Status infer_output_shape(const PoolAttributes& attributes, const std::vector<int64_t>& input_shape,
                          std::vector<int64_t>* output_shape);

// The begin/end pads actually used for `input_shape` after auto_pad, in ONNX
// `pads` order. Useful to compare against other runtimes.
Status resolve_pads(const PoolAttributes& attributes, const std::vector<int64_t>& input_shape,
                    std::vector<int64_t>* pads);

}  // namespace onnxpool
