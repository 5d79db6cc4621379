// The validation rules of the entry points added for AveragePool, LpPool,
// GlobalMaxPool, GlobalAveragePool and GlobalLpPool, and of the generic
// onnxpool::pool, in the style of invalid_input_test.cpp: each test asserts
// the status code, that the message names the offending attribute or tensor,
// and that the output buffers were not written.
#include <gtest/gtest.h>

#include <functional>
#include <initializer_list>
#include <ostream>
#include <string>

#include "onnxpool/pooling.h"
#include "reference/host_tensor.h"
#include "support/onnx_attributes.h"
#include "support/pool_check.h"
#include "support/status_checks.h"

namespace onnxpool_test {
namespace {

using onnxpool::Attributes;
using onnxpool::ElementType;
using onnxpool::PoolAttributes;
using onnxpool::PoolOp;
using onnxpool::Status;
using onnxpool::StatusCode;
using onnxpool::TensorView;
using Ints = std::vector<int64_t>;

const std::vector<PoolOp> kAllOps{PoolOp::kMaxPool,       PoolOp::kAveragePool,       PoolOp::kLpPool,
                                  PoolOp::kGlobalMaxPool, PoolOp::kGlobalAveragePool, PoolOp::kGlobalLpPool};
const std::vector<PoolOp> kGlobalOps{PoolOp::kGlobalMaxPool, PoolOp::kGlobalAveragePool, PoolOp::kGlobalLpPool};
// The sum-based operators: float types only.
const std::vector<PoolOp> kSumOps{PoolOp::kAveragePool, PoolOp::kLpPool, PoolOp::kGlobalAveragePool,
                                  PoolOp::kGlobalLpPool};

// An operator called through its own entry point or through onnxpool::pool.
struct EntryPoint {
  PoolOp op;
  bool through_dispatcher;
};

std::string label(const EntryPoint& e) {
  return std::string(onnxpool::op_name(e.op)) + (e.through_dispatcher ? "_through_pool" : "");
}

void PrintTo(const EntryPoint& e, std::ostream* out) { *out << label(e); }

std::vector<EntryPoint> entry_points(const std::vector<PoolOp>& ops) {
  std::vector<EntryPoint> all;
  for (PoolOp op : ops) {
    all.push_back({op, false});
    all.push_back({op, true});
  }
  return all;
}

// Valid attributes of `op`: kernel 2x2 for the windowed ones, p = 3 for the
// Lp ones (so a lost p would show).
Attributes valid_raw_attributes(PoolOp op) {
  Attributes raw;
  if (!is_global_pool(op)) raw.set("kernel_shape", Ints{2, 2});
  if (op == PoolOp::kLpPool || op == PoolOp::kGlobalLpPool) raw.set("p", int64_t{3});
  return raw;
}

PoolAttributes valid_attributes(PoolOp op) {
  PoolAttributes attributes;
  const Status status = PoolAttributes::parse(op, valid_raw_attributes(op), &attributes);
  EXPECT_TRUE(status.is_ok()) << onnxpool::op_name(op) << ": " << status.message();
  return attributes;
}

Status parse(PoolOp op, const Attributes& raw) {
  PoolAttributes parsed;
  return PoolAttributes::parse(op, raw, &parsed);
}

// A pointer that must never be read: the shape alone has to be refused.
const void* const kNeverDereferenced = reinterpret_cast<const void*>(uintptr_t{0x10});
// A bare nullptr would be ambiguous between TensorView's two constructors.
void* const kNullOutput = nullptr;

// Each test breaks one thing in this valid call: X [1, 2, 5, 6] float32,
// Y [1, 2, 4, 5] (kernel 2x2) or [1, 2, 1, 1] (global).
class NewOperatorCall : public testing::Test {
 protected:
  NewOperatorCall() : X(ElementType::kFloat32, {1, 2, 5, 6}) {
    for (int64_t i = 0; i < X.size(); ++i) X.set(i, static_cast<double>(i % 7) - 3);
  }

  static Ints y_shape(PoolOp op) { return is_global_pool(op) ? Ints{1, 2, 1, 1} : Ints{1, 2, 4, 5}; }

  TensorView y_view(PoolOp op) { return TensorView(y_buffer.data(), ElementType::kFloat32, y_shape(op)); }
  TensorView y_view(ElementType type, Ints shape) { return TensorView(y_buffer.data(), type, std::move(shape)); }

  static Status call(const EntryPoint& e, const PoolAttributes& attributes, const TensorView& x, const TensorView& y) {
    return call_operator(e.op, attributes, x, y, e.through_dispatcher);
  }

  bool outputs_untouched() const { return y_buffer.untouched() && indices_buffer.untouched(); }

  HostTensor X;
  SentinelBuffer y_buffer;
  SentinelBuffer indices_buffer;
};

class EveryNewEntryPoint : public NewOperatorCall, public testing::WithParamInterface<EntryPoint> {};

// Without this, every "untouched" below could pass for the wrong reason.
TEST_P(EveryNewEntryPoint, TheUnbrokenCallSucceedsAndWrites) {
  const EntryPoint e = GetParam();
  const Status status = call(e, valid_attributes(e.op), X.view(), y_view(e.op));
  EXPECT_TRUE(status.is_ok()) << status.message();
  EXPECT_FALSE(y_buffer.untouched());
}

TEST_P(EveryNewEntryPoint, NullDataPointers) {
  const EntryPoint e = GetParam();
  EXPECT_TRUE(rejected(call(e, valid_attributes(e.op), TensorView(static_cast<const void*>(nullptr), X.type(), X.shape()),
                            y_view(e.op)),
                       StatusCode::kInvalidArgument, {"X"}));
  EXPECT_TRUE(outputs_untouched());
  EXPECT_TRUE(rejected(call(e, valid_attributes(e.op), X.view(), TensorView(kNullOutput, ElementType::kFloat32, y_shape(e.op))),
                       StatusCode::kInvalidArgument, {"Y"}));
  EXPECT_TRUE(outputs_untouched());
}

TEST_P(EveryNewEntryPoint, WrongYShape) {
  const EntryPoint e = GetParam();
  const std::vector<Ints> wrong = is_global_pool(e.op)
                                      ? std::vector<Ints>{{1, 2, 1}, {1, 2, 5, 6}, {1, 2, 1, 1, 1}, {2, 2, 1, 1}, {1, 2}, {1, 1, 1, 1}}
                                      : std::vector<Ints>{{1, 2, 4, 4}, {1, 2, 5, 6}, {2, 2, 4, 5}, {1, 2, 20}, {1, 2, 1, 1}};
  for (const Ints& shape : wrong) {
    EXPECT_TRUE(rejected(call(e, valid_attributes(e.op), X.view(), y_view(ElementType::kFloat32, shape)),
                         StatusCode::kInvalidArgument, {"Y"}))
        << shape_to_string(shape);
  }
  EXPECT_TRUE(outputs_untouched());
}

TEST_P(EveryNewEntryPoint, WrongYType) {
  const EntryPoint e = GetParam();
  for (ElementType type : {ElementType::kFloat16, ElementType::kBFloat16, ElementType::kFloat64, ElementType::kInt64,
                           ElementType::kInt8}) {
    EXPECT_TRUE(rejected(call(e, valid_attributes(e.op), X.view(), y_view(type, y_shape(e.op))),
                         StatusCode::kInvalidArgument, {"Y"}))
        << type_label(type);
  }
  EXPECT_TRUE(outputs_untouched());
}

TEST_P(EveryNewEntryPoint, NegativeDimensions) {
  const EntryPoint e = GetParam();
  for (const Ints& shape : {Ints{1, -2, 5, 6}, Ints{1, 2, -5, 6}, Ints{-1, 2, 5, 6}}) {
    Ints inferred;
    EXPECT_EQ(onnxpool::infer_output_shape(valid_attributes(e.op), shape, &inferred).code(), StatusCode::kInvalidArgument)
        << shape_to_string(shape);
    EXPECT_TRUE(rejected(call(e, valid_attributes(e.op), TensorView(X.data(), X.type(), shape), y_view(e.op)),
                         StatusCode::kInvalidArgument, {"X"}))
        << shape_to_string(shape);
  }
  EXPECT_TRUE(outputs_untouched());
}

INSTANTIATE_TEST_SUITE_P(NewOperators, EveryNewEntryPoint, testing::ValuesIn(entry_points(sum_and_global_ops())),
                         [](const testing::TestParamInfo<EntryPoint>& param_info) { return label(param_info.param); });

// ---- Attributes that belong to another operator ----

// Each entry point checks that its attributes were parsed for its operator:
// average_pool must not run MaxPool's or LpPool's node as an average.
TEST_F(NewOperatorCall, AttributesParsedForAnotherOperator) {
  for (PoolOp op : sum_and_global_ops()) {
    for (PoolOp other : kAllOps) {
      if (other == op) continue;
      // A Y shaped for the entry point's own operator, so that only the attributes are at fault.
      const Status status = call({op, false}, valid_attributes(other), X.view(), y_view(op));
      EXPECT_TRUE(rejected(status, StatusCode::kInvalidArgument, {onnxpool::op_name(op), onnxpool::op_name(other)}))
          << onnxpool::op_name(op) << " given attributes parsed for " << onnxpool::op_name(other);
    }
  }
  EXPECT_TRUE(outputs_untouched());
}

TEST(NewOperatorAttributes, EachOperatorRefusesAttributesItDoesNotHave) {
  const struct {
    PoolOp op;
    std::vector<const char*> foreign;
  } cases[] = {
      {PoolOp::kAveragePool, {"storage_order", "p"}},
      {PoolOp::kLpPool, {"storage_order", "count_include_pad"}},
      {PoolOp::kGlobalMaxPool, {"kernel_shape", "strides", "dilations", "pads", "auto_pad", "ceil_mode", "storage_order", "count_include_pad", "p"}},
      {PoolOp::kGlobalAveragePool, {"kernel_shape", "strides", "pads", "auto_pad", "ceil_mode", "count_include_pad", "p"}},
      {PoolOp::kGlobalLpPool, {"kernel_shape", "strides", "dilations", "pads", "auto_pad", "ceil_mode", "count_include_pad"}},
  };
  for (const auto& c : cases) {
    for (const char* name : c.foreign) {
      Attributes raw = valid_raw_attributes(c.op);
      const std::string n = name;
      if (n == "kernel_shape" || n == "strides" || n == "dilations" || n == "pads") {
        raw.set(n, n == "pads" ? Ints{0, 0, 0, 0} : Ints{1, 1});
      } else if (n == "auto_pad") {
        raw.set(n, "NOTSET");
      } else {
        raw.set(n, int64_t{n == "p" ? 2 : 0});  // each at its default value: the name alone is at fault
      }
      EXPECT_TRUE(rejected(parse(c.op, raw), StatusCode::kInvalidArgument, {name}))
          << onnxpool::op_name(c.op) << " given " << name;
    }
  }
}

TEST(NewOperatorAttributes, TheirOwnAttributesParse) {
  PoolAttributes parsed;
  Status status = PoolAttributes::parse(
      PoolOp::kAveragePool, valid_raw_attributes(PoolOp::kAveragePool).set("count_include_pad", int64_t{1}).set("ceil_mode", int64_t{1}),
      &parsed);
  ASSERT_TRUE(status.is_ok()) << status.message();
  EXPECT_TRUE(parsed.count_include_pad);
  EXPECT_TRUE(parsed.ceil_mode);
  status = PoolAttributes::parse(PoolOp::kLpPool, valid_raw_attributes(PoolOp::kLpPool).set("p", int64_t{7}), &parsed);
  ASSERT_TRUE(status.is_ok()) << status.message();
  EXPECT_EQ(parsed.p, 7);
  status = PoolAttributes::parse(PoolOp::kGlobalLpPool, Attributes().set("p", int64_t{5}), &parsed);
  ASSERT_TRUE(status.is_ok()) << status.message();
  EXPECT_EQ(parsed.p, 5);
  EXPECT_TRUE(parsed.kernel_shape.empty());
}

TEST(NewOperatorAttributes, CountIncludePadNotZeroOrOne) {
  for (int64_t value : {2, -1}) {
    EXPECT_TRUE(rejected(parse(PoolOp::kAveragePool, valid_raw_attributes(PoolOp::kAveragePool).set("count_include_pad", value)),
                         StatusCode::kInvalidArgument, {"count_include_pad"}));
  }
  EXPECT_TRUE(rejected(parse(PoolOp::kAveragePool, valid_raw_attributes(PoolOp::kAveragePool).set("count_include_pad", Ints{1})),
                       StatusCode::kInvalidArgument, {"count_include_pad"}));
}

TEST(NewOperatorAttributes, PBelowOneOrOfTheWrongKind) {
  for (PoolOp op : {PoolOp::kLpPool, PoolOp::kGlobalLpPool}) {
    for (int64_t p : {0, -1, -8}) {
      EXPECT_TRUE(rejected(parse(op, valid_raw_attributes(op).set("p", p)), StatusCode::kInvalidArgument, {"p"}))
          << onnxpool::op_name(op) << " p=" << p;
    }
    // ONNX's p is an int; a float p is a different attribute type.
    EXPECT_TRUE(rejected(parse(op, valid_raw_attributes(op).set("p", 2.0f)), StatusCode::kInvalidArgument, {"p"}))
        << onnxpool::op_name(op);
  }
}

TEST(NewOperatorAttributes, WindowedOperatorsNeedAKernelShape) {
  for (PoolOp op : {PoolOp::kAveragePool, PoolOp::kLpPool}) {
    EXPECT_TRUE(rejected(parse(op, Attributes().set("strides", Ints{1, 1})), StatusCode::kInvalidArgument, {"kernel_shape"}))
        << onnxpool::op_name(op);
  }
}

// ---- Hand-built attributes: validated by the entry points as strictly ----

TEST_F(NewOperatorCall, HandBuiltPBelowOne) {
  for (PoolOp op : {PoolOp::kLpPool, PoolOp::kGlobalLpPool}) {
    for (bool through_dispatcher : {false, true}) {
      for (int64_t p : {0, -2}) {
        PoolAttributes attributes = valid_attributes(op);
        attributes.p = p;
        EXPECT_TRUE(rejected(call({op, through_dispatcher}, attributes, X.view(), y_view(op)), StatusCode::kInvalidArgument, {"p"}))
            << label({op, through_dispatcher}) << " p=" << p;
      }
    }
  }
  EXPECT_TRUE(outputs_untouched());
}

TEST_F(NewOperatorCall, HandBuiltWindowAttributes) {
  const struct {
    const char* name;
    std::function<void(PoolAttributes*)> breaks;
  } mistakes[] = {
      {"kernel_shape", [](PoolAttributes* a) { a->kernel_shape.clear(); }},
      {"kernel_shape", [](PoolAttributes* a) { a->kernel_shape = {0, 2}; }},
      {"strides", [](PoolAttributes* a) { a->strides = {1, 0}; }},
      {"dilations", [](PoolAttributes* a) { a->dilations = {-1, 1}; }},
      {"pads", [](PoolAttributes* a) { a->pads = {0, -1, 0, 0}; }},
      {"pads", [](PoolAttributes* a) { a->pads = {1, 1}; }},
  };
  for (PoolOp op : {PoolOp::kAveragePool, PoolOp::kLpPool}) {
    for (bool through_dispatcher : {false, true}) {
      for (const auto& mistake : mistakes) {
        PoolAttributes attributes = valid_attributes(op);
        mistake.breaks(&attributes);
        EXPECT_TRUE(rejected(call({op, through_dispatcher}, attributes, X.view(), y_view(op)), StatusCode::kInvalidArgument,
                             {mistake.name}))
            << label({op, through_dispatcher}) << ": " << mistake.name;
      }
    }
  }
  EXPECT_TRUE(outputs_untouched());
}

// ---- Element types ----

// ONNX's AveragePool, LpPool and the global sums take float types only; an
// int8 or uint8 X is refused (as invalid ONNX or as unsupported: either code
// is fair) with a message that points at X.
TEST_F(NewOperatorCall, IntegerInputForTheSumOperators) {
  for (ElementType type : {ElementType::kInt8, ElementType::kUInt8}) {
    HostTensor x(type, X.shape());
    for (PoolOp op : kSumOps) {
      for (bool through_dispatcher : {false, true}) {
        // Y shares X's type, as the operators require, so that only X's type is at fault.
        const Status status = call({op, through_dispatcher}, valid_attributes(op), x.view(), y_view(type, y_shape(op)));
        const std::string where = label({op, through_dispatcher}) + " " + type_label(type);
        EXPECT_TRUE(status.code() == StatusCode::kInvalidArgument || status.code() == StatusCode::kUnsupported)
            << where << ": " << code_name(status.code()) << " \"" << status.message() << "\"";
        EXPECT_TRUE(message_names(status.message(), "X")) << where << ": " << status.message();
      }
    }
  }
  EXPECT_TRUE(outputs_untouched());
}

// ---- Shapes ----

TEST_F(NewOperatorCall, GlobalOperatorsNeedRankThreeOrMore) {
  for (PoolOp op : kGlobalOps) {
    Ints inferred;
    EXPECT_EQ(onnxpool::infer_output_shape(valid_attributes(op), {2, 6}, &inferred).code(), StatusCode::kInvalidArgument)
        << onnxpool::op_name(op);
    for (bool through_dispatcher : {false, true}) {
      for (const Ints& shape : {Ints{2, 6}, Ints{12}}) {
        const Ints y = shape.size() == 2 ? Ints{2, 1} : Ints{1};
        EXPECT_TRUE(rejected(call({op, through_dispatcher}, valid_attributes(op), TensorView(X.data(), X.type(), shape),
                                  y_view(ElementType::kFloat32, y)),
                             StatusCode::kInvalidArgument, {"X"}))
            << label({op, through_dispatcher}) << " X" << shape_to_string(shape);
      }
    }
  }
  EXPECT_TRUE(outputs_untouched());
}

TEST_F(NewOperatorCall, GlobalOperatorsRefuseAnEmptySpatialAxis) {
  for (PoolOp op : kGlobalOps) {
    for (bool through_dispatcher : {false, true}) {
      EXPECT_TRUE(rejected(call({op, through_dispatcher}, valid_attributes(op), TensorView(X.data(), X.type(), Ints{1, 2, 0, 3}),
                                y_view(ElementType::kFloat32, {1, 2, 1, 1})),
                           StatusCode::kInvalidArgument, {"X"}))
          << label({op, through_dispatcher});
    }
  }
  EXPECT_TRUE(outputs_untouched());
}

TEST_F(NewOperatorCall, GlobalOperatorsRefuseAnElementCountThatOverflows) {
  const int64_t huge = int64_t{1} << 40;
  for (PoolOp op : kGlobalOps) {
    EXPECT_TRUE(rejected(call({op, false}, valid_attributes(op), TensorView(kNeverDereferenced, X.type(), Ints{1, 1, huge, huge}),
                              y_view(ElementType::kFloat32, {1, 1, 1, 1})),
                         StatusCode::kInvalidArgument, {"X"}))
        << onnxpool::op_name(op);
  }
  EXPECT_TRUE(outputs_untouched());
}

TEST_F(NewOperatorCall, WindowedKernelShapeRankDiffersFromInputSpatialRank) {
  for (PoolOp op : {PoolOp::kAveragePool, PoolOp::kLpPool}) {
    PoolAttributes attributes;
    ASSERT_TRUE(PoolAttributes::parse(op, Attributes().set("kernel_shape", Ints{2}), &attributes).is_ok());
    for (bool through_dispatcher : {false, true}) {
      EXPECT_TRUE(rejected(call({op, through_dispatcher}, attributes, X.view(), y_view(op)), StatusCode::kInvalidArgument,
                           {"kernel_shape"}))
          << label({op, through_dispatcher});
    }
  }
  EXPECT_TRUE(outputs_untouched());
}

TEST_F(NewOperatorCall, WindowedDilatedKernelWiderThanThePaddedInputByMoreThanAStride) {
  for (PoolOp op : {PoolOp::kAveragePool, PoolOp::kLpPool}) {
    PoolAttributes attributes;
    // 3 taps 4 apart cover 9 rows, 3 more than 5 + 1 with stride 1: a
    // negative output size (window_wider_than_input_test.cpp runs the valid
    // overhangs).
    ASSERT_TRUE(PoolAttributes::parse(op,
                                      Attributes().set("kernel_shape", Ints{3, 1}).set("dilations", Ints{4, 1}).set("pads", Ints{1, 0, 0, 0}),
                                      &attributes)
                    .is_ok());
    Ints shape;
    EXPECT_TRUE(rejected(onnxpool::infer_output_shape(attributes, X.shape(), &shape), StatusCode::kInvalidArgument,
                         {"kernel_shape", "dilations"}));
    EXPECT_TRUE(rejected(call({op, false}, attributes, X.view(), y_view(op)), StatusCode::kInvalidArgument,
                         {"kernel_shape", "dilations"}))
        << onnxpool::op_name(op);
  }
  EXPECT_TRUE(outputs_untouched());
}

// As for MaxPool: a rank-6 X is valid ONNX for the windowed operators, but
// onnxpool builds 1 to 3 spatial axes. (The global operators take it.)
TEST_F(NewOperatorCall, WindowedRankAboveFiveIsUnsupported) {
  const Ints shape{1, 1, 2, 2, 2, 2};
  for (PoolOp op : {PoolOp::kAveragePool, PoolOp::kLpPool}) {
    PoolAttributes attributes;
    Status status = PoolAttributes::parse(op, Attributes().set("kernel_shape", Ints{1, 1, 1, 1}), &attributes);
    if (status.is_ok()) status = call({op, false}, attributes, TensorView(X.data(), X.type(), shape), y_view(ElementType::kFloat32, shape));
    EXPECT_TRUE(rejected(status, StatusCode::kUnsupported, {"X", "kernel_shape"})) << onnxpool::op_name(op);
  }
  EXPECT_TRUE(outputs_untouched());
}

// ---- onnxpool::pool ----

TEST_F(NewOperatorCall, PoolTakesIndicesOnlyForMaxPool) {
  for (PoolOp op : sum_and_global_ops()) {
    const TensorView indices(indices_buffer.data(), ElementType::kInt64, y_shape(op));
    EXPECT_TRUE(rejected(onnxpool::pool(valid_attributes(op), X.view(), y_view(op), &indices), StatusCode::kInvalidArgument,
                         {"Indices"}))
        << onnxpool::op_name(op);
  }
  EXPECT_TRUE(outputs_untouched());
  // The same call for MaxPool is fine, and writes both outputs.
  const TensorView indices(indices_buffer.data(), ElementType::kInt64, y_shape(PoolOp::kMaxPool));
  const Status status = onnxpool::pool(valid_attributes(PoolOp::kMaxPool), X.view(), y_view(PoolOp::kMaxPool), &indices);
  EXPECT_TRUE(status.is_ok()) << status.message();
  EXPECT_FALSE(y_buffer.untouched());
  EXPECT_FALSE(indices_buffer.untouched());
}

}  // namespace
}  // namespace onnxpool_test
