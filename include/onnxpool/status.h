// Status: the result of every onnxpool call. Never throws, never aborts.
#pragma once

#include <string>
#include <utility>

namespace onnxpool {

enum class StatusCode {
  kOk = 0,
  kInvalidArgument,  // a bad attribute, shape, type or pointer from the caller
  kUnsupported,      // valid ONNX, but not built into this library (type, device)
  kInternal,         // a kernel failed; the message says why
};

class Status {
 public:
  Status() = default;
  static Status ok() { return Status(); }
  static Status invalid_argument(std::string message) {
    return Status(StatusCode::kInvalidArgument, std::move(message));
  }
  static Status unsupported(std::string message) {
    return Status(StatusCode::kUnsupported, std::move(message));
  }
  static Status internal(std::string message) {
    return Status(StatusCode::kInternal, std::move(message));
  }

  bool is_ok() const { return code_ == StatusCode::kOk; }
  explicit operator bool() const { return is_ok(); }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

}  // namespace onnxpool
