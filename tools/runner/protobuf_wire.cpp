#include "protobuf_wire.h"

#include <cstring>
#include <utility>

namespace onnxpool_runner::wire {

namespace {

constexpr size_t kMaxVarintBytes = 10;  // 64 bits at 7 bits per byte

const char* wire_type_name(WireType type) {
  switch (type) {
    case WireType::kVarint: return "varint";
    case WireType::kFixed64: return "64-bit";
    case WireType::kLengthDelimited: return "length-delimited";
    case WireType::kStartGroup: return "start-group";
    case WireType::kEndGroup: return "end-group";
    case WireType::kFixed32: return "32-bit";
  }
  return "unknown";
}

[[noreturn]] void wrong_type(const Field& field, const char* name, const char* wanted) {
  throw ParseError("field " + std::to_string(field.number) + " (" + name + ") has wire type " +
                   wire_type_name(field.type) + ", expected " + wanted);
}

void split_packed_varints(const Field& field, const char* name, std::vector<uint64_t>* out) {
  Reader reader = Reader::nested(field, std::string("packed field ") + name);
  while (!reader.at_end()) out->push_back(reader.read_varint());
}

uint64_t little_endian(const unsigned char* bytes, size_t count) {
  uint64_t value = 0;
  for (size_t i = 0; i < count; ++i) value |= static_cast<uint64_t>(bytes[i]) << (8 * i);
  return value;
}

void split_packed_fixed(const Field& field, const char* name, size_t width,
                        std::vector<uint64_t>* out) {
  if (field.payload.size() % width != 0) {
    throw ParseError(std::string("packed field ") + name + " at byte " +
                     std::to_string(field.payload_offset) + " holds " +
                     std::to_string(field.payload.size()) + " bytes, not a multiple of " +
                     std::to_string(width));
  }
  const auto* bytes = reinterpret_cast<const unsigned char*>(field.payload.data());
  for (size_t pos = 0; pos < field.payload.size(); pos += width) {
    out->push_back(little_endian(bytes + pos, width));
  }
}

}  // namespace

Reader::Reader(std::string_view data, std::string message, size_t base_offset)
    : data_(data), message_(std::move(message)), base_offset_(base_offset) {}

Reader Reader::nested(const Field& field, std::string message) {
  return Reader(field.payload, std::move(message), field.payload_offset);
}

void Reader::fail(const std::string& what) const {
  throw ParseError(message_ + ": " + what);
}

uint64_t Reader::read_varint() {
  const size_t start = pos_;
  uint64_t value = 0;
  size_t shift = 0;
  for (size_t i = 0;; ++i) {
    if (i == kMaxVarintBytes) {
      fail("varint longer than 10 bytes at byte " + std::to_string(base_offset_ + start));
    }
    if (pos_ >= data_.size()) {
      fail("truncated varint at byte " + std::to_string(base_offset_ + start));
    }
    const auto byte = static_cast<unsigned char>(data_[pos_++]);
    value |= static_cast<uint64_t>(byte & 0x7f) << shift;
    shift += 7;
    if ((byte & 0x80) == 0) return value;
  }
}

uint64_t Reader::read_fixed(size_t bytes) {
  if (data_.size() - pos_ < bytes) {
    fail("truncated " + std::to_string(bytes * 8) + "-bit value at byte " +
         std::to_string(base_offset_ + pos_) + ": " + std::to_string(data_.size() - pos_) +
         " bytes remain");
  }
  const uint64_t value =
      little_endian(reinterpret_cast<const unsigned char*>(data_.data()) + pos_, bytes);
  pos_ += bytes;
  return value;
}

bool Reader::next(Field* field) {
  if (pos_ >= data_.size()) return false;
  const size_t tag_offset = base_offset_ + pos_;
  const uint64_t tag = read_varint();
  const uint64_t number = tag >> 3;
  if (number == 0 || number > 0x1fffffff) {
    fail("invalid field number " + std::to_string(number) + " at byte " +
         std::to_string(tag_offset));
  }
  *field = Field();
  field->number = static_cast<uint32_t>(number);
  field->type = static_cast<WireType>(tag & 7);
  switch (field->type) {
    case WireType::kVarint:
      field->value = read_varint();
      return true;
    case WireType::kFixed64:
      field->value = read_fixed(8);
      return true;
    case WireType::kFixed32:
      field->value = read_fixed(4);
      return true;
    case WireType::kLengthDelimited: {
      const size_t length_offset = base_offset_ + pos_;
      const uint64_t length = read_varint();
      const size_t remaining = data_.size() - pos_;
      if (length > remaining) {
        fail("field " + std::to_string(number) + " at byte " + std::to_string(length_offset) +
             " claims " + std::to_string(length) + " bytes but only " +
             std::to_string(remaining) + " remain");
      }
      field->payload = data_.substr(pos_, static_cast<size_t>(length));
      field->payload_offset = base_offset_ + pos_;
      pos_ += static_cast<size_t>(length);
      return true;
    }
    case WireType::kStartGroup:
    case WireType::kEndGroup:
      fail("field " + std::to_string(number) + " at byte " + std::to_string(tag_offset) +
           " uses deprecated groups, which ONNX never writes");
  }
  fail("invalid wire type " + std::to_string(tag & 7) + " at byte " + std::to_string(tag_offset));
}

uint64_t expect_varint(const Field& field, const char* name) {
  if (field.type != WireType::kVarint) wrong_type(field, name, "varint");
  return field.value;
}

float expect_float(const Field& field, const char* name) {
  if (field.type != WireType::kFixed32) wrong_type(field, name, "32-bit");
  const auto bits = static_cast<uint32_t>(field.value);
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

std::string_view expect_bytes(const Field& field, const char* name) {
  if (field.type != WireType::kLengthDelimited) wrong_type(field, name, "length-delimited");
  return field.payload;
}

void append_varints(const Field& field, const char* name, std::vector<uint64_t>* out) {
  if (field.type == WireType::kVarint) {
    out->push_back(field.value);
  } else if (field.type == WireType::kLengthDelimited) {
    split_packed_varints(field, name, out);
  } else {
    wrong_type(field, name, "varint or packed varints");
  }
}

void append_fixed32(const Field& field, const char* name, std::vector<uint32_t>* out) {
  if (field.type == WireType::kFixed32) {
    out->push_back(static_cast<uint32_t>(field.value));
  } else if (field.type == WireType::kLengthDelimited) {
    std::vector<uint64_t> wide;
    split_packed_fixed(field, name, 4, &wide);
    for (uint64_t v : wide) out->push_back(static_cast<uint32_t>(v));
  } else {
    wrong_type(field, name, "32-bit or packed 32-bit");
  }
}

void append_fixed64(const Field& field, const char* name, std::vector<uint64_t>* out) {
  if (field.type == WireType::kFixed64) {
    out->push_back(field.value);
  } else if (field.type == WireType::kLengthDelimited) {
    split_packed_fixed(field, name, 8, out);
  } else {
    wrong_type(field, name, "64-bit or packed 64-bit");
  }
}

void Writer::raw_varint(uint64_t value) {
  while (value >= 0x80) {
    data_.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  data_.push_back(static_cast<char>(value));
}

void Writer::tag(uint32_t number, WireType type) {
  raw_varint((static_cast<uint64_t>(number) << 3) | static_cast<uint32_t>(type));
}

void Writer::varint(uint32_t number, uint64_t value) {
  tag(number, WireType::kVarint);
  raw_varint(value);
}

void Writer::bytes(uint32_t number, std::string_view payload) {
  tag(number, WireType::kLengthDelimited);
  raw_varint(payload.size());
  data_.append(payload.data(), payload.size());
}

void Writer::fixed32(uint32_t number, uint32_t value) {
  tag(number, WireType::kFixed32);
  for (int b = 0; b < 4; ++b) data_.push_back(static_cast<char>(value >> (8 * b)));
}

}  // namespace onnxpool_runner::wire
