#include "api_check.h"

#include <algorithm>
#include <cstring>
#include <exception>
#include <limits>
#include <optional>
#include <sstream>

#include "execute/kernel_launch.h"
#include "onnxpool/onnxpool.h"
#include "reference/pool_geometry.h"
#include "reference/reference_pooling.h"
#include "support/pool_cases.h"
#include "support/pool_expectation.h"
#include "support/approx_compare.h"
#include "support/onnx_attributes.h"
#include "support/random.h"
#include "support/tensor_compare.h"
#include "support/value_fills.h"
#include "support/window_cost.h"
#include "execute/window_segments.h"

namespace onnxpool_fuzz {

using onnxpool::ElementType;
using onnxpool::PoolOp;
using onnxpool::Status;
using onnxpool::StatusCode;
using onnxpool_test::HostTensor;
using onnxpool_test::PoolSpec;
using Kind = onnxpool::Attributes::Kind;

namespace {

void run_last_first(void*, onnxpool::ParallelTask task, void* context, size_t count) {
  for (size_t i = count; i-- > 0;) task(context, i);
}

// Where the case's kernel loops run: onnxpool's own threads, or a caller's
// pool that runs every task on the calling thread, last first.
void use_threads(const ApiCase& c) {
  if (!c.caller_pool) {
    onnxpool::set_num_threads(c.threads);
    return;
  }
  onnxpool::use_thread_pool(onnxpool::ThreadPool{run_last_first, nullptr, c.threads + 1});
}

// What the fuzzer runs and checks against the reference: small enough that
// the plain reference (one loop over outputs x taps) keeps up with libFuzzer.
constexpr int64_t kMaxRunElements = int64_t{1} << 16;  // of X, and of Y
constexpr int64_t kMaxReferenceWork = int64_t{1} << 20;  // outputs x taps
// The p values support/value_fills.h keeps every |x|^p of inside double.
constexpr int64_t kMaxCheckedP = 8;

constexpr size_t kGuardBytes = 64;
constexpr uint8_t kGuardByte = 0x5A;
constexpr uint8_t kUnwrittenByte = 0xA5;

// The most window taps a call of `op` with geometry g over `planes` planes
// may evaluate. A call in segments stays within taps_inside_bound; one kept
// whole, because it is small or its segments would not cost under half of
// it (runtime/execute/window_segments.h), within twice what the segments would
// cost: their taps, a call overhead for each of at most 8 per axis, and two
// passes over Y (the phases' copies, AveragePool's divisors). LpPool's
// float32 path may run its windows twice (the exact redo).
double most_window_taps(PoolOp op, const onnxpool_test::WindowGeometry& g, int64_t planes) {
  double outputs = static_cast<double>(planes), calls = 1;
  for (size_t a = 0; a < g.rank(); ++a) {
    outputs *= static_cast<double>(g.output[a]);
    calls *= 8;
  }
  const double segments = onnxpool_test::taps_inside_bound(g, planes) +
                          static_cast<double>(onnxpool::detail::kCallOverheadTaps) * calls + 2 * outputs;
  const double runs = op == PoolOp::kLpPool ? 2 : 1;
  return runs * std::max(static_cast<double>(onnxpool::detail::kMinTapsForSegments), 2 * segments);
}

// ONNX opset 22: the attributes each operator takes, and their kinds.
std::optional<Kind> attribute_kind(PoolOp op, const std::string& name) {
  const bool windowed = !onnxpool_test::is_global_pool(op);
  if (windowed && (name == "kernel_shape" || name == "strides" || name == "pads" || name == "dilations")) {
    return Kind::kInts;
  }
  if (windowed && name == "auto_pad") return Kind::kString;
  if (windowed && name == "ceil_mode") return Kind::kInt;
  if (op == PoolOp::kMaxPool && name == "storage_order") return Kind::kInt;
  if (op == PoolOp::kAveragePool && name == "count_include_pad") return Kind::kInt;
  if ((op == PoolOp::kLpPool || op == PoolOp::kGlobalLpPool) && name == "p") return Kind::kInt;
  return std::nullopt;
}

// ONNX opset 22's type constraint T of each operator.
bool onnx_takes_type(PoolOp op, ElementType type) {
  switch (type) {
    case ElementType::kFloat32: case ElementType::kFloat16: case ElementType::kBFloat16: case ElementType::kFloat64:
      return true;
    case ElementType::kInt8: case ElementType::kUInt8: return op == PoolOp::kMaxPool;
    default: return false;
  }
}

bool known_type(ElementType type) {
  switch (type) {
    case ElementType::kFloat32: case ElementType::kFloat16: case ElementType::kBFloat16: case ElementType::kFloat64:
    case ElementType::kInt8: case ElementType::kUInt8: case ElementType::kInt64:
      return true;
  }
  return false;
}

onnxpool::Attributes to_attributes(const ApiCase& c) {
  onnxpool::Attributes attributes;
  for (const FuzzAttribute& a : c.attributes) {
    switch (a.kind) {
      case Kind::kInt: attributes.set(a.name, a.ints.empty() ? int64_t{0} : a.ints[0]); break;
      case Kind::kInts: attributes.set(a.name, a.ints); break;
      case Kind::kString: attributes.set(a.name, a.text); break;
      case Kind::kFloat: attributes.set(a.name, a.real); break;
    }
  }
  return attributes;
}

// The reference's reading of the attributes (the last of a repeated name
// wins, as in Attributes), or nothing when one is unknown or of the wrong kind.
std::optional<PoolSpec> to_spec(const ApiCase& c) {
  // A name set again replaces the earlier value and kind.
  std::vector<FuzzAttribute> last;
  for (const FuzzAttribute& a : c.attributes) {
    bool replaced = false;
    for (FuzzAttribute& kept : last) {
      if (kept.name == a.name) {
        kept = a;
        replaced = true;
      }
    }
    if (!replaced) last.push_back(a);
  }
  PoolSpec spec;
  for (const FuzzAttribute& a : last) {
    const std::optional<Kind> kind = attribute_kind(c.op, a.name);
    if (!kind || *kind != a.kind) return std::nullopt;
    const int64_t i = a.ints.empty() ? 0 : a.ints[0];
    if (a.name == "kernel_shape") spec.kernel_shape = a.ints;
    if (a.name == "strides") spec.strides = a.ints;
    if (a.name == "pads") spec.pads = a.ints;
    if (a.name == "dilations") spec.dilations = a.ints;
    if (a.name == "auto_pad") spec.auto_pad = a.text;
    if (a.name == "ceil_mode") spec.ceil_mode = i != 0;
    if (a.name == "storage_order") spec.storage_order = i;
    if (a.name == "count_include_pad") spec.count_include_pad = i != 0;
    if (a.name == "p") spec.p = i;
  }
  return spec;
}

// The output shape the reference geometry gives, or nothing for a node
// ONNX rejects.
std::optional<std::vector<int64_t>> reference_shape(PoolOp op, const PoolSpec& spec,
                                                    const std::vector<int64_t>& x_shape) {
  if (x_shape.size() < 3) return std::nullopt;
  // No X can hold more bytes than an int64 counts (8 per element at most).
  int64_t elements = 1;
  for (int64_t d : x_shape) {
    if (d < 0) return std::nullopt;
    if (d != 0 && elements > std::numeric_limits<int64_t>::max() / 8 / d) return std::nullopt;
    elements *= d;
  }
  std::vector<int64_t> shape = {x_shape[0], x_shape[1]};
  const std::vector<int64_t> spatial(x_shape.begin() + 2, x_shape.end());
  if (onnxpool_test::is_global_pool(op)) {
    for (int64_t d : spatial) {
      if (d == 0) return std::nullopt;  // the global pool of nothing
    }
    shape.resize(x_shape.size(), 1);
    return shape;
  }
  try {
    const onnxpool_test::WindowGeometry g = onnxpool_test::window_geometry(spec, spatial);
    shape.insert(shape.end(), g.output.begin(), g.output.end());
    return shape;
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
}

// Element count, or -1 past int64.
int64_t count_of(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0) return -1;
    if (d != 0 && n > std::numeric_limits<int64_t>::max() / d) return -1;
    n *= d;
  }
  return n;
}

// A tensor's bytes with guard bytes on both sides, all set to known values.
class GuardedBuffer {
 public:
  explicit GuardedBuffer(size_t bytes) : bytes_(bytes), storage_(bytes + 2 * kGuardBytes, kGuardByte) {
    std::fill(storage_.begin() + kGuardBytes, storage_.end() - kGuardBytes, kUnwrittenByte);
  }
  void* data() { return storage_.data() + kGuardBytes; }
  size_t size() const { return bytes_; }
  bool guards_intact() const {
    const auto intact = [](auto begin, auto end) {
      return std::all_of(begin, end, [](uint8_t b) { return b == kGuardByte; });
    };
    return intact(storage_.begin(), storage_.begin() + kGuardBytes) &&
           intact(storage_.end() - kGuardBytes, storage_.end());
  }
  bool untouched() const {
    return guards_intact() && std::all_of(storage_.begin() + kGuardBytes, storage_.end() - kGuardBytes,
                                          [](uint8_t b) { return b == kUnwrittenByte; });
  }
  HostTensor to_tensor(ElementType type, const std::vector<int64_t>& shape) const {
    HostTensor t(type, shape);
    std::memcpy(t.data(), storage_.data() + kGuardBytes, t.byte_size());
    return t;
  }

 private:
  size_t bytes_;
  std::vector<uint8_t> storage_;
};

// X's values, as the tests draw them for the operator; the scale exponent
// for the sum operators' reference (value_fills.h).
int fill_input(PoolOp op, uint64_t seed, HostTensor* X) {
  onnxpool_test::Random random(seed);
  if (op == PoolOp::kMaxPool || op == PoolOp::kGlobalMaxPool || !onnxpool_test::is_floating_point(X->type())) {
    switch (seed % 3) {
      case 0: onnxpool_test::fill_with_ties(random, X, 0.1); break;
      case 1: onnxpool_test::fill_with_any_bits(random, X); break;
      default: onnxpool_test::fill_away_from_zero(random, X); break;
    }
    return 0;
  }
  const bool lp = op == PoolOp::kLpPool || op == PoolOp::kGlobalLpPool;
  return onnxpool_test::fill_for_sum_pool(random, X, lp ? onnxpool_test::SumPool::kLp
                                                        : onnxpool_test::SumPool::kAverage);
}

bool names_an_attribute(const ApiCase& c, const std::string& message) {
  for (const std::string& name : onnx_attribute_names()) {
    if (message.find(name) != std::string::npos) return true;
  }
  // Quoted, so that an empty or unprintable name counts too.
  for (const FuzzAttribute& a : c.attributes) {
    if (message.find("'" + a.name + "'") != std::string::npos) return true;
  }
  return false;
}

class Checker {
 public:
  Checker(const ApiCase& c, CheckCounts* counts) : c_(c), counts_(counts) {}

  std::string run() {
    ++counts_->cases;
    onnxpool::PoolAttributes attributes;
    const Status parsed = onnxpool::PoolAttributes::parse(c_.op, to_attributes(c_), &attributes);
    const std::optional<PoolSpec> spec = to_spec(c_);
    if (!parsed) {
      ++counts_->refused_by_parse;
      if (parsed.code() != StatusCode::kInvalidArgument) return fail("parse returned a code other than invalid_argument", parsed);
      if (!names_an_attribute(c_, parsed.message())) return fail("parse's error names no attribute", parsed);
      return "";
    }
    if (!spec) return fail("parse accepted an attribute the operator does not take, or one of the wrong kind", parsed);

    std::vector<int64_t> y_shape;
    const Status inferred = onnxpool::infer_output_shape(attributes, c_.x_shape, &y_shape);
    const std::optional<std::vector<int64_t>> expected = reference_shape(c_.op, *spec, c_.x_shape);
    if (!inferred) {
      if (inferred.code() == StatusCode::kInternal) return fail("infer_output_shape failed internally", inferred);
      if (inferred.code() == StatusCode::kUnsupported) {
        // The documented limit (docs/semantics.md): positions or buffers
        // past 2^31. Anything else unsupported is a refusal of valid ONNX.
        if (inferred.message().find("2^31") == std::string::npos) {
          return fail("unsupported for no documented reason", inferred);
        }
        ++counts_->unsupported_limit;
      } else {
        ++counts_->refused_by_shape;
        if (expected) return fail("refused a node the reference accepts, shape " + onnxpool_test::shape_to_string(*expected), inferred);
      }
      return call_refused_node(attributes);
    }
    if (!expected) return fail("accepted a node the reference rejects, giving " + onnxpool_test::shape_to_string(y_shape), inferred);
    if (y_shape != *expected) {
      return fail("output shape " + onnxpool_test::shape_to_string(y_shape) + " but the reference gives " + onnxpool_test::shape_to_string(*expected), inferred);
    }
    if (!onnxpool_test::is_global_pool(c_.op)) {
      std::vector<int64_t> pads;
      const Status resolved = onnxpool::resolve_pads(attributes, c_.x_shape, &pads);
      const onnxpool_test::WindowGeometry g = onnxpool_test::window_geometry(
          *spec, std::vector<int64_t>(c_.x_shape.begin() + 2, c_.x_shape.end()));
      if (!resolved || pads != g.onnx_pads()) {
        return fail("resolve_pads gives " + onnxpool_test::shape_to_string(pads) + " but the reference " + onnxpool_test::shape_to_string(g.onnx_pads()),
                    resolved);
      }
    }
    return run_valid_node(attributes, *spec, y_shape);
  }

 private:
  std::string fail(const std::string& what, const Status& status) const {
    std::ostringstream out;
    out << what << " (status " << static_cast<int>(status.code()) << ": '" << status.message() << "')\n  case: "
        << c_.describe();
    return out.str();
  }

  int64_t reference_work(const std::vector<int64_t>& y_shape, const PoolSpec& spec) const {
    if (onnxpool_test::is_global_pool(c_.op)) return count_of(c_.x_shape);
    int64_t work = count_of(y_shape);
    for (int64_t k : spec.kernel_shape) {
      if (work != 0 && k > std::numeric_limits<int64_t>::max() / work) return -1;
      work *= k;
    }
    return work;
  }

  // A node infer_output_shape refused: the operator must refuse it too,
  // writing nothing. X is not allocated at its size (it may be huge): a
  // library that read it anyway would read out of bounds, which is the point.
  std::string call_refused_node(const onnxpool::PoolAttributes& attributes) {
    std::vector<uint64_t> x_storage(8);
    const onnxpool::TensorView X(static_cast<const void*>(x_storage.data()), c_.type, c_.x_shape);
    const std::vector<int64_t> y_shape(std::max<size_t>(c_.x_shape.size(), 3), 1);
    GuardedBuffer y(8 * 1);
    const onnxpool::TensorView Y(y.data(), c_.type, y_shape);
    use_threads(c_);
    const Status status = onnxpool::pool(attributes, X, Y, nullptr);
    if (status) return fail("infer_output_shape refused the node but the operator ran it", status);
    if (status.code() == StatusCode::kInternal) return fail("the operator failed internally", status);
    if (!y.untouched()) return fail("a refused call wrote into Y", status);
    return "";
  }

  std::string run_valid_node(const onnxpool::PoolAttributes& attributes, const PoolSpec& spec,
                             const std::vector<int64_t>& y_shape) {
    const int64_t x_count = count_of(c_.x_shape), y_count = count_of(y_shape);
    const int64_t work = reference_work(y_shape, spec);
    if (x_count < 0 || y_count < 0 || x_count > kMaxRunElements || y_count > kMaxRunElements) {
      ++counts_->too_large_to_run;
      return "";
    }
    // Windows far into the padding: the library runs them (that they cost
    // their taps inside X is the point), the plain reference would not.
    const bool reference_keeps_up = work >= 0 && work <= kMaxReferenceWork;
    const bool valid_type = known_type(c_.type) && c_.type != ElementType::kInt64;
    // Invalid type codes get raw storage; HostTensor holds only real types.
    HostTensor X;
    std::vector<uint64_t> raw_x(static_cast<size_t>(x_count) + 1);
    int scale_exponent = 0;
    if (valid_type || c_.type == ElementType::kInt64) {
      X = HostTensor(c_.type, c_.x_shape);
      if (valid_type) scale_exponent = fill_input(c_.op, c_.value_seed, &X);
    }
    const HostTensor x_before = X;
    const void* x_data = known_type(c_.type) ? X.data() : static_cast<const void*>(raw_x.data());

    // The caller's tensors, with the case's mistakes.
    std::vector<int64_t> y_call_shape = y_shape;
    if (c_.mistakes.y_shape_off) ++y_call_shape.back();
    ElementType y_type = c_.type;
    if (c_.mistakes.y_type_off) y_type = c_.type == ElementType::kFloat32 ? ElementType::kFloat64 : ElementType::kFloat32;
    const int64_t y_call_count = count_of(y_call_shape);
    const size_t y_element = known_type(y_type) ? onnxpool_test::bytes_per_element(y_type) : 8;
    // One more along the last axis of an empty Y can make a huge shape (X [2^31, 19, 3, 0]: Y
    // [2^31, 19, 1, 1]): a call must refuse it without touching the buffer, so a small one serves,
    // and a write into it past its end would still trip the guards or ASan.
    const int64_t y_room = y_call_count < 0 || y_call_count > kMaxRunElements ? kMaxRunElements : y_call_count;
    GuardedBuffer y(static_cast<size_t>(y_room) * y_element);
    const ElementType indices_type = c_.mistakes.indices_not_int64 ? ElementType::kFloat64 : ElementType::kInt64;
    GuardedBuffer indices(static_cast<size_t>(y_count) * 8);
    const bool x_empty = x_count == 0, y_empty = y_call_count == 0;
    const onnxpool::TensorView X_view(c_.mistakes.null_x ? nullptr : x_data, c_.type, c_.x_shape);
    const onnxpool::TensorView Y_view(c_.mistakes.null_y ? nullptr : y.data(), y_type, y_call_shape);
    const onnxpool::TensorView Indices_view(indices.data(), indices_type, y_shape);

    const bool mistaken = c_.mistakes.y_shape_off || c_.mistakes.y_type_off ||
                          (c_.with_indices && (c_.op != PoolOp::kMaxPool || c_.mistakes.indices_not_int64)) ||
                          (c_.mistakes.null_x && !x_empty) || (c_.mistakes.null_y && !y_empty);
    // Windowed kernels exist for 1 to 3 spatial axes; more is unsupported.
    const bool has_kernels = onnxpool_test::is_global_pool(c_.op) || c_.x_shape.size() <= 5;
    const bool must_run = !mistaken && onnx_takes_type(c_.op, c_.type) && has_kernels;

    use_threads(c_);
    const int64_t taps_before = onnxpool::detail::window_taps_evaluated();
    const Status status = onnxpool::pool(attributes, X_view, Y_view, c_.with_indices ? &Indices_view : nullptr);
    const double taps = static_cast<double>(onnxpool::detail::window_taps_evaluated() - taps_before);
    if (status.code() == StatusCode::kInternal) return fail("the call failed internally", status);
    if (!status) {
      ++counts_->refused_call;
      if (must_run) return fail("refused a correct call of a valid node", status);
      if (status.message().empty()) return fail("refused with an empty message", status);
      if (!y.untouched() || !indices.untouched()) return fail("a refused call wrote into Y or Indices", status);
      return "";
    }
    if (mistaken) return fail("ran a call with a mistake in its tensors", status);
    if (!known_type(c_.type) || c_.type == ElementType::kInt64) return fail("ran X of a type no operator takes", status);
    if (!y.guards_intact()) return fail("wrote outside Y", status);
    if (!indices.guards_intact()) return fail("wrote outside Indices", status);
    if (!X.same_bytes(x_before)) return fail("wrote into X", status);
    if (!onnxpool_test::is_global_pool(c_.op)) {
      const onnxpool_test::WindowGeometry g = onnxpool_test::window_geometry(
          spec, std::vector<int64_t>(c_.x_shape.begin() + 2, c_.x_shape.end()));
      const double most = most_window_taps(c_.op, g, c_.x_shape[0] * c_.x_shape[1]);
      if (taps > most) {
        std::ostringstream what;
        what << "evaluated " << taps << " window taps, over the bound of " << most << " its taps inside X set";
        return fail(what.str(), status);
      }
    }
    if (!reference_keeps_up) {
      ++counts_->ran_cost_only;
      return "";
    }
    return compare_values(spec, X, scale_exponent, y.to_tensor(c_.type, y_shape),
                          c_.with_indices ? indices.to_tensor(ElementType::kInt64, y_shape) : HostTensor(), status);
  }

  std::string compare_values(const PoolSpec& spec, const HostTensor& X, int scale_exponent, const HostTensor& Y,
                             const HostTensor& Indices, const Status& status) {
    testing::AssertionResult same = testing::AssertionSuccess();
    if (c_.op == PoolOp::kMaxPool) {
      const onnxpool_test::MaxPoolResult expected = onnxpool_test::reference_max_pool(spec, X);
      same = onnxpool_test::tensors_identical("Y", expected.Y, Y);
      if (same && c_.with_indices) same = onnxpool_test::tensors_identical("Indices", expected.Indices, Indices);
    } else if (c_.op == PoolOp::kGlobalMaxPool) {
      same = onnxpool_test::tensors_identical("Y", onnxpool_test::reference_global_max_pool(X), Y);
    } else {
      if ((c_.op == PoolOp::kLpPool || c_.op == PoolOp::kGlobalLpPool) && spec.p > kMaxCheckedP) {
        ++counts_->ran_unchecked_values;
        return "";
      }
      onnxpool_test::PoolCase pool_case = onnxpool_test::make_pool_case(c_.op, spec, X);
      pool_case.scale_exponent = scale_exponent;
      const onnxpool_test::PoolExpectation expected = onnxpool_test::expected_pool_result(pool_case);
      same = expected.exact ? onnxpool_test::tensors_identical("Y", expected.values, Y)
                            : onnxpool_test::tensors_close("Y", c_.type, expected.values, expected.allowed, Y);
    }
    if (!same) return fail(std::string("differs from the reference: ") + same.message(), status);
    ++counts_->ran_and_matched;
    return "";
  }

  const ApiCase& c_;
  CheckCounts* counts_;
};

}  // namespace

std::string CheckCounts::summary() const {
  std::ostringstream out;
  out << cases << " cases: " << refused_by_parse << " refused by parse, " << refused_by_shape
      << " by infer_output_shape, " << unsupported_limit << " unsupported (a documented limit), "
      << too_large_to_run << " valid but too large to run here, " << ran_cost_only
      << " ran too costly for the reference (guards and cost checked), " << refused_call << " calls refused, "
      << ran_and_matched << " ran and matched the reference, " << ran_unchecked_values
      << " ran with p above " << kMaxCheckedP << " (values not compared)";
  return out.str();
}

std::string check_api_case(const ApiCase& c, CheckCounts* counts) {
  CheckCounts ignored;
  try {
    return Checker(c, counts != nullptr ? counts : &ignored).run();
  } catch (const std::exception& e) {
    return std::string("exception while checking: ") + e.what() + "\n  case: " + c.describe();
  }
}

}  // namespace onnxpool_fuzz
