#include "api_case.h"

#include <cstring>
#include <limits>

#include "onnxpool/onnxpool.h"
#include "reference/host_tensor.h"

namespace onnxpool_fuzz {

using onnxpool::ElementType;
using Kind = onnxpool::Attributes::Kind;

namespace {

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();

// Values that broke shape arithmetic somewhere: type limits, where float
// rounding of sizes starts (2^24, 2^53), squares that pass 2^31 and 2^63.
const std::vector<int64_t>& interesting_values() {
  static const std::vector<int64_t> values = {
      0, 1, -1, 2, 3, 127, 128, 255, 256, 32767, 65535, 65536, 46341, 1 << 24, (1 << 24) + 1,
      int64_t{1} << 30, (int64_t{1} << 31) - 1, int64_t{1} << 31, (int64_t{1} << 31) + 1,
      (int64_t{1} << 32) - 1, int64_t{1} << 32, (int64_t{1} << 32) + 1, int64_t{3037000500},
      int64_t{1} << 53, (int64_t{1} << 53) + 1, int64_t{1} << 62, kInt64Max / 2, kInt64Max - 1, kInt64Max,
      kInt64Min, kInt64Min + 1, -(int64_t{1} << 31), -((int64_t{1} << 31) - 1), -(int64_t{1} << 32)};
  return values;
}

constexpr uint8_t kSmallLimit = 0x80;  // selectors below: the value selector - 16
constexpr int64_t kSmallOffset = 16;
constexpr uint8_t kRawSelector = 0xFF;  // and 0xF0 .. 0xFE: 8 raw bytes follow

const std::vector<ElementType>& x_types() {
  // int64 is no X type and 99 no type at all: both must be refused.
  static const std::vector<ElementType> types = {
      ElementType::kFloat32, ElementType::kFloat16, ElementType::kBFloat16, ElementType::kFloat64,
      ElementType::kInt8,    ElementType::kUInt8,   ElementType::kInt64,    static_cast<ElementType>(99)};
  return types;
}

const std::vector<onnxpool::PoolOp>& ops() {
  static const std::vector<onnxpool::PoolOp> list = {
      onnxpool::PoolOp::kMaxPool,       onnxpool::PoolOp::kAveragePool,       onnxpool::PoolOp::kLpPool,
      onnxpool::PoolOp::kGlobalMaxPool, onnxpool::PoolOp::kGlobalAveragePool, onnxpool::PoolOp::kGlobalLpPool};
  return list;
}

const std::vector<std::string>& auto_pad_values() {
  static const std::vector<std::string> values = {"NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"};
  return values;
}

enum Flag : uint8_t {
  kWithIndices = 1,
  kNullX = 2,
  kNullY = 4,
  kYShapeOff = 8,
  kYTypeOff = 16,
  kIndicesNotInt64 = 32,
  kTwoThreads = 64,
  kCallerPool = 128,
};

constexpr size_t kMaxRank = 8;
constexpr size_t kMaxAttributes = 12;
constexpr size_t kMaxInts = 16;

class Cursor {
 public:
  Cursor(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  uint8_t byte() { return position_ < size_ ? data_[position_++] : 0; }

  uint64_t raw64() {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= uint64_t{byte()} << (8 * i);
    return v;
  }

  int64_t value() {
    const uint8_t s = byte();
    if (s < kSmallLimit) return static_cast<int64_t>(s) - kSmallOffset;
    if (s < 0xF0) return interesting_values()[(s - kSmallLimit) % interesting_values().size()];
    return static_cast<int64_t>(raw64());
  }

  std::string text() {
    const size_t n = byte() % 24;
    std::string s;
    for (size_t i = 0; i < n; ++i) s.push_back(static_cast<char>(byte()));
    return s;
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t position_ = 0;
};

class Writer {
 public:
  void byte(uint8_t b) { bytes.push_back(b); }
  void raw64(uint64_t v) {
    for (int i = 0; i < 8; ++i) byte(static_cast<uint8_t>(v >> (8 * i)));
  }
  void value(int64_t v) {
    if (v >= -kSmallOffset && v < kSmallLimit - kSmallOffset) {
      byte(static_cast<uint8_t>(v + kSmallOffset));
    } else {
      byte(kRawSelector);
      raw64(static_cast<uint64_t>(v));
    }
  }
  void text(const std::string& s) {
    byte(static_cast<uint8_t>(s.size()));
    for (char ch : s) byte(static_cast<uint8_t>(ch));
  }
  std::vector<uint8_t> bytes;
};

template <typename T>
size_t index_in(const std::vector<T>& list, const T& item) {
  for (size_t i = 0; i < list.size(); ++i) {
    if (list[i] == item) return i;
  }
  return list.size();
}

const char* kind_name(Kind kind) {
  switch (kind) {
    case Kind::kInt: return "int";
    case Kind::kInts: return "ints";
    case Kind::kString: return "string";
    case Kind::kFloat: return "float";
  }
  return "?";
}

}  // namespace

const std::vector<std::string>& onnx_attribute_names() {
  static const std::vector<std::string> names = {"kernel_shape", "strides",      "pads",
                                                 "dilations",    "auto_pad",     "ceil_mode",
                                                 "storage_order", "count_include_pad", "p"};
  return names;
}

ApiCase decode_api_case(const uint8_t* data, size_t size) {
  Cursor in(data, size);
  ApiCase c;
  c.op = ops()[in.byte() % ops().size()];
  c.type = x_types()[in.byte() % x_types().size()];
  const uint8_t flags = in.byte();
  c.with_indices = (flags & kWithIndices) != 0;
  c.mistakes.null_x = (flags & kNullX) != 0;
  c.mistakes.null_y = (flags & kNullY) != 0;
  c.mistakes.y_shape_off = (flags & kYShapeOff) != 0;
  c.mistakes.y_type_off = (flags & kYTypeOff) != 0;
  c.mistakes.indices_not_int64 = (flags & kIndicesNotInt64) != 0;
  c.threads = (flags & kTwoThreads) != 0 ? 2 : 1;
  c.caller_pool = (flags & kCallerPool) != 0;
  const size_t rank = in.byte() % kMaxRank;
  for (size_t i = 0; i < rank; ++i) c.x_shape.push_back(in.value());
  const size_t attribute_count = in.byte() % kMaxAttributes;
  const std::vector<std::string>& names = onnx_attribute_names();
  for (size_t k = 0; k < attribute_count; ++k) {
    FuzzAttribute a;
    const size_t name = in.byte() % (names.size() + 1);
    a.name = name < names.size() ? names[name] : in.text();
    a.kind = static_cast<Kind>(in.byte() % 4);
    switch (a.kind) {
      case Kind::kInt: a.ints = {in.value()}; break;
      case Kind::kInts: {
        const size_t n = in.byte() % kMaxInts;
        for (size_t i = 0; i < n; ++i) a.ints.push_back(in.value());
        break;
      }
      case Kind::kString: {
        const uint8_t selector = in.byte();
        a.text = selector < auto_pad_values().size() ? auto_pad_values()[selector] : in.text();
        break;
      }
      case Kind::kFloat: {
        const uint32_t bits = static_cast<uint32_t>(in.raw64());
        std::memcpy(&a.real, &bits, sizeof bits);
        break;
      }
    }
    c.attributes.push_back(std::move(a));
  }
  c.value_seed = in.raw64();
  return c;
}

std::vector<uint8_t> encode_api_case(const ApiCase& c) {
  Writer out;
  out.byte(static_cast<uint8_t>(index_in(ops(), c.op)));
  out.byte(static_cast<uint8_t>(index_in(x_types(), c.type)));
  uint8_t flags = 0;
  if (c.with_indices) flags |= kWithIndices;
  if (c.mistakes.null_x) flags |= kNullX;
  if (c.mistakes.null_y) flags |= kNullY;
  if (c.mistakes.y_shape_off) flags |= kYShapeOff;
  if (c.mistakes.y_type_off) flags |= kYTypeOff;
  if (c.mistakes.indices_not_int64) flags |= kIndicesNotInt64;
  if (c.threads == 2) flags |= kTwoThreads;
  if (c.caller_pool) flags |= kCallerPool;
  out.byte(flags);
  out.byte(static_cast<uint8_t>(c.x_shape.size()));
  for (int64_t d : c.x_shape) out.value(d);
  out.byte(static_cast<uint8_t>(c.attributes.size()));
  const std::vector<std::string>& names = onnx_attribute_names();
  for (const FuzzAttribute& a : c.attributes) {
    const size_t name = index_in(names, a.name);
    out.byte(static_cast<uint8_t>(name));
    if (name == names.size()) out.text(a.name);
    out.byte(static_cast<uint8_t>(a.kind));
    switch (a.kind) {
      case Kind::kInt: out.value(a.ints.empty() ? 0 : a.ints[0]); break;
      case Kind::kInts:
        out.byte(static_cast<uint8_t>(a.ints.size()));
        for (int64_t v : a.ints) out.value(v);
        break;
      case Kind::kString: {
        const size_t selector = index_in(auto_pad_values(), a.text);
        if (selector < auto_pad_values().size()) {
          out.byte(static_cast<uint8_t>(selector));
        } else {
          out.byte(kRawSelector);
          out.text(a.text);
        }
        break;
      }
      case Kind::kFloat: {
        uint32_t bits = 0;
        std::memcpy(&bits, &a.real, sizeof bits);
        out.raw64(bits);
        break;
      }
    }
  }
  out.raw64(c.value_seed);
  return out.bytes;
}

std::string ApiCase::describe() const {
  std::string s = std::string(onnxpool::op_name(op)) + " X ";
  const char* type_name = onnxpool::element_type_name(type);
  s += std::string(type_name != nullptr ? type_name : "?") + " " + onnxpool_test::shape_to_string(x_shape);
  for (const FuzzAttribute& a : attributes) {
    s += " " + a.name + "(" + kind_name(a.kind) + ")=";
    switch (a.kind) {
      case Kind::kInt: s += std::to_string(a.ints.empty() ? 0 : a.ints[0]); break;
      case Kind::kInts: s += onnxpool_test::shape_to_string(a.ints); break;
      case Kind::kString: s += "'" + a.text + "'"; break;
      case Kind::kFloat: s += std::to_string(a.real); break;
    }
  }
  if (with_indices) s += " with Indices";
  if (mistakes.null_x) s += " null X";
  if (mistakes.null_y) s += " null Y";
  if (mistakes.y_shape_off) s += " Y shape off by one";
  if (mistakes.y_type_off) s += " Y type off";
  if (mistakes.indices_not_int64) s += " Indices not int64";
  s += " threads " + std::to_string(threads) + (caller_pool ? " on a caller's pool" : "") + " values seed " + std::to_string(value_seed);
  return s;
}

}  // namespace onnxpool_fuzz
