// Parsing and shape-independent validation of ONNX pooling attributes.
#include "api/call_guard.h"
#include <algorithm>
#include <string>

#include "plan/attribute_checks.h"
#include "onnxpool/attributes.h"

namespace onnxpool {

const char* op_name(PoolOp op) {
  switch (op) {
    case PoolOp::kMaxPool: return "MaxPool";
    case PoolOp::kAveragePool: return "AveragePool";
    case PoolOp::kLpPool: return "LpPool";
    case PoolOp::kGlobalMaxPool: return "GlobalMaxPool";
    case PoolOp::kGlobalAveragePool: return "GlobalAveragePool";
    case PoolOp::kGlobalLpPool: return "GlobalLpPool";
  }
  return "unknown";
}

Attributes::Entry& Attributes::slot(const std::string& name) {
  for (Entry& e : entries_) {
    if (e.name == name) return e = Entry{name, Kind::kInt};
  }
  entries_.push_back(Entry{name, Kind::kInt});
  return entries_.back();
}

Attributes& Attributes::set(const std::string& name, int64_t value) {
  Entry& e = slot(name);
  e.kind = Kind::kInt;
  e.i = value;
  return *this;
}

Attributes& Attributes::set(const std::string& name, std::vector<int64_t> values) {
  Entry& e = slot(name);
  e.kind = Kind::kInts;
  e.ints = std::move(values);
  return *this;
}

Attributes& Attributes::set(const std::string& name, std::string value) {
  Entry& e = slot(name);
  e.kind = Kind::kString;
  e.s = std::move(value);
  return *this;
}

Attributes& Attributes::set(const std::string& name, float value) {
  Entry& e = slot(name);
  e.kind = Kind::kFloat;
  e.f = value;
  return *this;
}

namespace {

using detail::is_global_op;

// Which attributes each operator accepts (ONNX opset 22).
bool accepts(PoolOp op, const std::string& name) {
  if (name == "p") return op == PoolOp::kLpPool || op == PoolOp::kGlobalLpPool;
  if (is_global_op(op)) return false;
  static const char* kWindowed[] = {"kernel_shape", "strides", "dilations", "pads", "auto_pad",
                                    "ceil_mode"};
  for (const char* n : kWindowed) {
    if (name == n) return true;
  }
  if (name == "storage_order") return op == PoolOp::kMaxPool;
  if (name == "count_include_pad") return op == PoolOp::kAveragePool;
  return false;
}

// "auto_pad, ceil_mode, ...": what an error about an unknown name lists.
std::string accepted_names(PoolOp op) {
  static const char* kAll[] = {"auto_pad", "ceil_mode", "count_include_pad", "dilations", "kernel_shape",
                               "p",        "pads",      "storage_order",     "strides"};
  std::string names;
  for (const char* n : kAll) {
    if (accepts(op, n)) names += (names.empty() ? "" : ", ") + std::string(n);
  }
  return names.empty() ? "none" : names;
}

const char* kind_name(Attributes::Kind kind) {
  switch (kind) {
    case Attributes::Kind::kInt: return "an int";
    case Attributes::Kind::kInts: return "a list of ints";
    case Attributes::Kind::kString: return "a string";
    case Attributes::Kind::kFloat: return "a float";
  }
  return "unknown";
}

class Parser {
 public:
  Parser(PoolOp op, PoolAttributes* out) : op_(op), out_(out) {}

  Status apply(const Attributes::Entry& e) {
    const std::string& n = e.name;
    if (!accepts(op_, n)) {
      return error(n, "is not an attribute of " + std::string(op_name(op_)) + " (it takes " + accepted_names(op_) + ")");
    }
    if (n == "kernel_shape" || n == "strides" || n == "dilations" || n == "pads") {
      if (e.kind != Attributes::Kind::kInts) return wrong_kind(e, Attributes::Kind::kInts);
      std::vector<int64_t>* dst = n == "kernel_shape" ? &out_->kernel_shape
                                  : n == "strides"    ? &out_->strides
                                  : n == "dilations"  ? &out_->dilations
                                                      : &out_->pads;
      *dst = e.ints;
      for (int64_t v : e.ints) {
        if (n == "pads" ? v < 0 : v <= 0) {
          return error(n, std::string("must be ") + (n == "pads" ? "non-negative" : "positive") +
                              ", got " + std::to_string(v));
        }
      }
      return Status::ok();
    }
    if (n == "auto_pad") {
      if (e.kind != Attributes::Kind::kString) return wrong_kind(e, Attributes::Kind::kString);
      if (e.s == "NOTSET") out_->auto_pad = AutoPad::kNotSet;
      else if (e.s == "SAME_UPPER") out_->auto_pad = AutoPad::kSameUpper;
      else if (e.s == "SAME_LOWER") out_->auto_pad = AutoPad::kSameLower;
      else if (e.s == "VALID") out_->auto_pad = AutoPad::kValid;
      else return error(n, "must be NOTSET, SAME_UPPER, SAME_LOWER or VALID, got '" + e.s + "'");
      return Status::ok();
    }
    // The remaining attributes are all scalar ints.
    if (e.kind != Attributes::Kind::kInt) return wrong_kind(e, Attributes::Kind::kInt);
    if (n == "ceil_mode" || n == "count_include_pad" || n == "storage_order") {
      if (e.i != 0 && e.i != 1) return error(n, "must be 0 or 1, got " + std::to_string(e.i));
      if (n == "ceil_mode") out_->ceil_mode = e.i == 1;
      if (n == "count_include_pad") out_->count_include_pad = e.i == 1;
      if (n == "storage_order") out_->storage_order = e.i;
      return Status::ok();
    }
    // n == "p"
    if (e.i < 1) return error(n, "must be an integer >= 1, got " + std::to_string(e.i));
    out_->p = e.i;
    return Status::ok();
  }

  // Fills the ONNX defaults that depend on kernel_shape's rank.
  void fill_defaults() {
    if (is_global_op(op_)) return;
    const size_t rank = out_->kernel_shape.size();
    if (out_->strides.empty()) out_->strides.assign(rank, 1);
    if (out_->dilations.empty()) out_->dilations.assign(rank, 1);
    if (out_->pads.empty()) out_->pads.assign(2 * rank, 0);
  }

 private:
  Status error(const std::string& name, const std::string& what) const {
    return Status::invalid_argument(std::string(op_name(op_)) + ": attribute '" + name + "' " + what);
  }
  Status wrong_kind(const Attributes::Entry& e, Attributes::Kind expected) const {
    return error(e.name, std::string("must be ") + kind_name(expected) + ", got " + kind_name(e.kind));
  }
  PoolOp op_;
  PoolAttributes* out_;
};

}  // namespace

namespace {

Status parse_attributes(PoolOp op, const Attributes& attributes, PoolAttributes* out) {
  if (out == nullptr) return Status::invalid_argument("PoolAttributes::parse: out is null");
  PoolAttributes parsed;
  parsed.op = op;
  Parser parser(op, &parsed);
  for (const Attributes::Entry& e : attributes.entries()) {
    Status s = parser.apply(e);
    if (!s) return s;
  }
  parser.fill_defaults();
  Status s = detail::validate_attributes(parsed);
  if (!s) return s;
  *out = std::move(parsed);
  return Status::ok();
}

}  // namespace

Status PoolAttributes::parse(PoolOp op, const Attributes& attributes, PoolAttributes* out) {
  return detail::guarded_call("PoolAttributes::parse", [&] { return parse_attributes(op, attributes, out); });
}

}  // namespace onnxpool

namespace onnxpool::detail {

bool is_global_op(PoolOp op) {
  return op == PoolOp::kGlobalMaxPool || op == PoolOp::kGlobalAveragePool || op == PoolOp::kGlobalLpPool;
}

// Every rule that does not need the input shape. max_pool and friends run it
// again, so a PoolAttributes filled in by hand is checked as strictly as a parsed one.
Status validate_attributes(const PoolAttributes& a) {
  auto error = [&](const std::string& name, const std::string& what) {
    return Status::invalid_argument(std::string(op_name(a.op)) + ": attribute '" + name + "' " + what);
  };
  switch (a.op) {
    case PoolOp::kMaxPool:
    case PoolOp::kAveragePool:
    case PoolOp::kLpPool:
    case PoolOp::kGlobalMaxPool:
    case PoolOp::kGlobalAveragePool:
    case PoolOp::kGlobalLpPool:
      break;
    default:
      return Status::invalid_argument("PoolAttributes: unknown operator code " + std::to_string(static_cast<int>(a.op)));
  }
  if (a.p < 1) return error("p", "must be an integer >= 1, got " + std::to_string(a.p));
  if (a.storage_order != 0 && a.storage_order != 1) {
    return error("storage_order", "must be 0 or 1, got " + std::to_string(a.storage_order));
  }
  if (is_global_op(a.op)) return Status::ok();
  switch (a.auto_pad) {
    case AutoPad::kNotSet:
    case AutoPad::kSameUpper:
    case AutoPad::kSameLower:
    case AutoPad::kValid:
      break;
    default:
      return error("auto_pad", "has an unknown value " + std::to_string(static_cast<int>(a.auto_pad)));
  }
  const size_t rank = a.kernel_shape.size();
  if (rank == 0) return error("kernel_shape", "is required");
  auto per_axis = [&](const char* name, const std::vector<int64_t>& values, size_t expected, bool zero_ok) {
    if (values.size() != expected) {
      return error(name, "must have " + std::to_string(expected) + " values (" +
                             (expected == rank ? "one per kernel_shape axis" : "begin and end per kernel_shape axis") +
                             "), got " + std::to_string(values.size()));
    }
    for (int64_t v : values) {
      if (zero_ok ? v < 0 : v <= 0) {
        return error(name, std::string("must be ") + (zero_ok ? "non-negative" : "positive") + ", got " +
                               std::to_string(v));
      }
    }
    return Status::ok();
  };
  Status s = per_axis("kernel_shape", a.kernel_shape, rank, false);
  if (s) s = per_axis("strides", a.strides, rank, false);
  if (s) s = per_axis("dilations", a.dilations, rank, false);
  if (s) s = per_axis("pads", a.pads, 2 * rank, true);
  if (!s) return s;
  const bool any_pad = std::any_of(a.pads.begin(), a.pads.end(), [](int64_t v) { return v != 0; });
  if (a.auto_pad != AutoPad::kNotSet && any_pad) {
    return error("pads", "must not be given together with auto_pad other than NOTSET");
  }
  return Status::ok();
}

}  // namespace onnxpool::detail
