#include "support/status_checks.h"

#include <cctype>

namespace onnxpool_test {
namespace {

bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

const char* code_name(onnxpool::StatusCode code) {
  switch (code) {
    case onnxpool::StatusCode::kOk: return "kOk";
    case onnxpool::StatusCode::kInvalidArgument: return "kInvalidArgument";
    case onnxpool::StatusCode::kUnsupported: return "kUnsupported";
    case onnxpool::StatusCode::kInternal: return "kInternal";
  }
  return "unknown";
}

bool message_names(const std::string& message, const std::string& name) {
  for (size_t at = message.find(name); at != std::string::npos; at = message.find(name, at + 1)) {
    const bool starts_word = at == 0 || !is_identifier_char(message[at - 1]);
    const size_t end = at + name.size();
    const bool ends_word = end == message.size() || !is_identifier_char(message[end]);
    if (starts_word && ends_word) return true;
  }
  return false;
}

testing::AssertionResult rejected(const onnxpool::Status& status, onnxpool::StatusCode code,
                                  std::initializer_list<const char*> names) {
  if (status.code() != code) {
    return testing::AssertionFailure() << "expected " << code_name(code) << ", got " << code_name(status.code())
                                       << ": \"" << status.message() << "\"";
  }
  for (const char* name : names) {
    if (message_names(status.message(), name)) return testing::AssertionSuccess();
  }
  testing::AssertionResult failure = testing::AssertionFailure() << "message \"" << status.message() << "\" names none of:";
  for (const char* name : names) failure << ' ' << name;
  return failure;
}

bool SentinelBuffer::untouched() const {
  for (uint64_t word : words_) {
    if (word != kPattern) return false;
  }
  return true;
}

}  // namespace onnxpool_test
