// One call of the public API as api_fuzzer drives it, and its byte encoding.
//
// The encoding is read front to back by a cursor that never fails: past the
// end every read gives 0, so every byte string is some case and libFuzzer's
// mutations always reach the library. Values are drawn through selectors
// that favour what breaks shape arithmetic (0, -1, 2^31 - 1, 2^63 - 1, ...),
// with a raw 8-byte form for everything else, which encode_api_case uses so
// that a hand-written case (hostile_cases.cpp) round-trips exactly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "onnxpool/attributes.h"
#include "onnxpool/tensor.h"

namespace onnxpool_fuzz {

// An attribute as a runtime may hand it over, wrong kinds and unknown names included.
struct FuzzAttribute {
  std::string name;
  onnxpool::Attributes::Kind kind = onnxpool::Attributes::Kind::kInts;
  std::vector<int64_t> ints;  // kInt: ints[0]
  std::string text;           // kString
  float real = 0.0f;          // kFloat
};

// How the caller's tensors differ from a correct call (all false: correct).
struct Mistakes {
  bool null_x = false;
  bool null_y = false;
  bool y_shape_off = false;    // one axis of Y one longer than inferred
  bool y_type_off = false;     // Y of another element type than X
  bool indices_not_int64 = false;
};

struct ApiCase {
  onnxpool::PoolOp op = onnxpool::PoolOp::kMaxPool;
  onnxpool::ElementType type = onnxpool::ElementType::kFloat32;
  std::vector<int64_t> x_shape;
  std::vector<FuzzAttribute> attributes;
  bool with_indices = false;  // pass an Indices tensor (MaxPool; an error elsewhere)
  Mistakes mistakes;
  uint64_t value_seed = 0;  // X's contents (support/value_fills.h)
  int threads = 1;          // set_num_threads before the call: 1 or 2
  // Instead, a caller's pool (use_thread_pool) of `threads` + 1 threads that
  // runs every task on the calling thread, last first.
  bool caller_pool = false;

  // Readable, for failure reports and the regression tests' names.
  std::string describe() const;
};

ApiCase decode_api_case(const uint8_t* data, size_t size);
std::vector<uint8_t> encode_api_case(const ApiCase& c);

// The operators' ONNX attribute names, for checking that errors name one.
const std::vector<std::string>& onnx_attribute_names();

}  // namespace onnxpool_fuzz
