// The Protocol Buffers wire format, reduced to what ONNX files use. Written
// here so the conformance runner needs no libprotobuf and the core library
// stays dependency-free. Reference: https://protobuf.dev/programming-guides/encoding/
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace onnxpool_runner::wire {

enum class WireType : uint32_t {
  kVarint = 0,
  kFixed64 = 1,
  kLengthDelimited = 2,
  kStartGroup = 3,  // deprecated groups: never used by ONNX, rejected
  kEndGroup = 4,
  kFixed32 = 5,
};

// Thrown for malformed input; the message says what and at which byte offset.
// Callers that promise "no crash on a bad file" catch it at their boundary.
class ParseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One field as read from the wire. `payload` points into the reader's buffer,
// so it lives only as long as that buffer.
struct Field {
  uint32_t number = 0;
  WireType type = WireType::kVarint;
  uint64_t value = 0;          // kVarint, kFixed64, kFixed32 (low 32 bits)
  std::string_view payload;    // kLengthDelimited
  size_t payload_offset = 0;   // absolute offset of `payload`, for error messages
};

// Walks the fields of one message. Every length is checked against the bytes
// that remain before anything is read, so no input can make it read out of
// bounds. Unknown fields are left to the caller to ignore.
class Reader {
 public:
  // `message` names the message being read ("TensorProto"), and `base_offset`
  // is where `data` starts in the file, so errors point at the right byte.
  Reader(std::string_view data, std::string message, size_t base_offset = 0);

  // Reads the next field into *field; returns false at the end of the data.
  bool next(Field* field);

  // A reader for a nested message held in a length-delimited field.
  static Reader nested(const Field& field, std::string message);

  // For packed runs, which are bare varints with no tags.
  bool at_end() const { return pos_ >= data_.size(); }
  uint64_t read_varint();

  [[noreturn]] void fail(const std::string& what) const;

 private:
  uint64_t read_fixed(size_t bytes);

  std::string_view data_;
  std::string message_;
  size_t base_offset_;
  size_t pos_ = 0;
};

// Field accessors that check the wire type against what the schema says; a
// mismatch is a ParseError naming the field.
uint64_t expect_varint(const Field& field, const char* name);
float expect_float(const Field& field, const char* name);
std::string_view expect_bytes(const Field& field, const char* name);

// Repeated scalar fields may arrive packed (one length-delimited run) or
// unpacked (one field per element), and a writer may mix both; these append
// either form.
void append_varints(const Field& field, const char* name, std::vector<uint64_t>* out);
void append_fixed32(const Field& field, const char* name, std::vector<uint32_t>* out);
void append_fixed64(const Field& field, const char* name, std::vector<uint64_t>* out);

// Builds a message. ONNX's schema is proto2, so repeated scalars are written
// unpacked, the way ONNX's own serializer writes them.
class Writer {
 public:
  void varint(uint32_t number, uint64_t value);
  void bytes(uint32_t number, std::string_view payload);
  void fixed32(uint32_t number, uint32_t value);
  const std::string& data() const { return data_; }

 private:
  void tag(uint32_t number, WireType type);
  void raw_varint(uint64_t value);
  std::string data_;
};

}  // namespace onnxpool_runner::wire
