// Checks on a refused call: the status code, that the message names the
// attribute or tensor at fault, and that no output was written.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "onnxpool/status.h"

namespace onnxpool_test {

const char* code_name(onnxpool::StatusCode code);

// `name` as a word of its own, so "X" is not found inside "MaxPool" or "X_shape".
bool message_names(const std::string& message, const std::string& name);

// The status has `code` and its message names at least one of `names`
// (several only where more than one attribute is equally at fault).
testing::AssertionResult rejected(const onnxpool::Status& status, onnxpool::StatusCode code,
                                  std::initializer_list<const char*> names);

// Backing memory for an output view, pre-filled so any write shows. Larger
// than any output in the invalid-input tests, so a view may claim a wrong
// shape or type safely.
class SentinelBuffer {
 public:
  SentinelBuffer() : words_(kWords, kPattern) {}
  void* data() { return words_.data(); }
  bool untouched() const;

 private:
  static constexpr size_t kWords = 512;
  static constexpr uint64_t kPattern = 0xA5C3A5C3A5C3A5C3ull;
  std::vector<uint64_t> words_;
};

}  // namespace onnxpool_test
