// One test per validation rule of the public API. Each asserts the status
// code, that the message names the offending attribute or tensor, and, for
// every max_pool call, that neither Y nor Indices was written.
//
// Attribute rules are checked through PoolAttributes::parse (InvalidAttributes)
// and, where the struct can express them, again through max_pool with a
// hand-built struct (HandBuiltAttributes).
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <initializer_list>
#include <string>

#include "onnxpool/pooling.h"
#include "reference/host_tensor.h"
#include "support/status_checks.h"

namespace onnxpool_test {
namespace {

using onnxpool::Attributes;
using onnxpool::PoolAttributes;
using onnxpool::PoolOp;
using onnxpool::Status;
using onnxpool::StatusCode;
using onnxpool::TensorView;
using Ints = std::vector<int64_t>;

// The valid MaxPool attributes that each attribute test adds one mistake to.
Attributes kernel_2x2() { return Attributes().set("kernel_shape", Ints{2, 2}); }

Status parse_max_pool(const Attributes& attributes) {
  PoolAttributes parsed;
  return PoolAttributes::parse(PoolOp::kMaxPool, attributes, &parsed);
}

// Each test breaks one thing in this valid call: X [1, 2, 5, 6] float32,
// kernel 2x2, Y and Indices [1, 2, 4, 5].
class InvalidInput : public testing::Test {
 protected:
  InvalidInput() : X(onnxpool::ElementType::kFloat32, {1, 2, 5, 6}) {
    for (int64_t i = 0; i < X.size(); ++i) X.set(i, static_cast<double>(i % 7));
  }

  PoolAttributes valid_attributes() {
    PoolAttributes attributes;
    const Status status = PoolAttributes::parse(PoolOp::kMaxPool, kernel_2x2(), &attributes);
    EXPECT_TRUE(status.is_ok()) << status.message();
    return attributes;
  }

  TensorView x_view() const { return X.view(); }
  TensorView y_view(onnxpool::ElementType type = onnxpool::ElementType::kFloat32, Ints shape = {1, 2, 4, 5}) {
    return TensorView(y_buffer.data(), type, std::move(shape));
  }
  TensorView indices_view(onnxpool::ElementType type = onnxpool::ElementType::kInt64, Ints shape = {1, 2, 4, 5}) {
    return TensorView(indices_buffer.data(), type, std::move(shape));
  }

  // max_pool with the given attributes and the valid tensors, Indices included.
  Status call_with(const PoolAttributes& attributes) {
    const TensorView indices = indices_view();
    return onnxpool::max_pool(attributes, x_view(), y_view(), &indices);
  }

  Status call_with_x(const TensorView& x) {
    const TensorView indices = indices_view();
    return onnxpool::max_pool(valid_attributes(), x, y_view(), &indices);
  }

  Status call_with_y(const TensorView& y) {
    const TensorView indices = indices_view();
    return onnxpool::max_pool(valid_attributes(), x_view(), y, &indices);
  }

  Status call_with_indices(const TensorView& indices) {
    return onnxpool::max_pool(valid_attributes(), x_view(), y_view(), &indices);
  }

  bool outputs_untouched() const { return y_buffer.untouched() && indices_buffer.untouched(); }

  HostTensor X;
  SentinelBuffer y_buffer;
  SentinelBuffer indices_buffer;
};

// Without this, every "untouched" below could pass for the wrong reason.
TEST_F(InvalidInput, TheUnbrokenCallSucceedsAndWrites) {
  const Status status = call_with(valid_attributes());
  EXPECT_TRUE(status.is_ok()) << status.message();
  EXPECT_FALSE(y_buffer.untouched());
  EXPECT_FALSE(indices_buffer.untouched());
}

// ---- Attribute rules, as a runtime meets them: PoolAttributes::parse ----

TEST(InvalidAttributes, MissingKernelShape) {
  EXPECT_TRUE(rejected(parse_max_pool(Attributes().set("strides", Ints{1, 1})), StatusCode::kInvalidArgument,
                       {"kernel_shape"}));
}

TEST(InvalidAttributes, ZeroOrNegativeKernel) {
  for (const Ints& kernel : {Ints{0, 2}, Ints{2, -1}}) {
    EXPECT_TRUE(rejected(parse_max_pool(Attributes().set("kernel_shape", kernel)), StatusCode::kInvalidArgument,
                         {"kernel_shape"}));
  }
}

TEST(InvalidAttributes, ZeroOrNegativeStride) {
  for (const Ints& strides : {Ints{0, 1}, Ints{1, -2}}) {
    EXPECT_TRUE(rejected(parse_max_pool(kernel_2x2().set("strides", strides)), StatusCode::kInvalidArgument,
                         {"strides"}));
  }
}

TEST(InvalidAttributes, ZeroOrNegativeDilation) {
  for (const Ints& dilations : {Ints{0, 1}, Ints{1, -1}}) {
    EXPECT_TRUE(rejected(parse_max_pool(kernel_2x2().set("dilations", dilations)), StatusCode::kInvalidArgument,
                         {"dilations"}));
  }
}

TEST(InvalidAttributes, NegativePads) {
  EXPECT_TRUE(rejected(parse_max_pool(kernel_2x2().set("pads", Ints{0, -1, 0, 0})), StatusCode::kInvalidArgument,
                       {"pads"}));
}

TEST(InvalidAttributes, PadsOfWrongLength) {
  for (const Ints& pads : {Ints{1, 1}, Ints{1, 1, 1, 1, 1, 1}}) {
    EXPECT_TRUE(rejected(parse_max_pool(kernel_2x2().set("pads", pads)), StatusCode::kInvalidArgument, {"pads"}));
  }
}

TEST(InvalidAttributes, StridesOrDilationsOfWrongLength) {
  EXPECT_TRUE(rejected(parse_max_pool(kernel_2x2().set("strides", Ints{1})), StatusCode::kInvalidArgument,
                       {"strides"}));
  EXPECT_TRUE(rejected(parse_max_pool(kernel_2x2().set("dilations", Ints{1, 1, 1})), StatusCode::kInvalidArgument,
                       {"dilations"}));
}

TEST(InvalidAttributes, AutoPadWithExplicitNonZeroPads) {
  for (const char* auto_pad : {"SAME_UPPER", "SAME_LOWER", "VALID"}) {
    EXPECT_TRUE(rejected(parse_max_pool(kernel_2x2().set("auto_pad", auto_pad).set("pads", Ints{1, 0, 0, 1})),
                         StatusCode::kInvalidArgument, {"auto_pad", "pads"}))
        << auto_pad;
  }
}

TEST(InvalidAttributes, UnknownAutoPadString) {
  for (const char* auto_pad : {"SAME", "PADDED", ""}) {
    EXPECT_TRUE(rejected(parse_max_pool(kernel_2x2().set("auto_pad", auto_pad)), StatusCode::kInvalidArgument,
                         {"auto_pad"}))
        << '"' << auto_pad << '"';
  }
}

TEST(InvalidAttributes, UnknownAttributeName) {
  EXPECT_TRUE(rejected(parse_max_pool(kernel_2x2().set("kernel_size", Ints{2, 2})), StatusCode::kInvalidArgument,
                       {"kernel_size"}));
  // AveragePool's and LpPool's own attributes are unknown to MaxPool.
  EXPECT_TRUE(rejected(parse_max_pool(kernel_2x2().set("count_include_pad", int64_t{1})),
                       StatusCode::kInvalidArgument, {"count_include_pad"}));
  EXPECT_TRUE(rejected(parse_max_pool(kernel_2x2().set("p", int64_t{2})), StatusCode::kInvalidArgument, {"p"}));
}

TEST(InvalidAttributes, WrongAttributeKind) {
  EXPECT_TRUE(rejected(parse_max_pool(Attributes().set("kernel_shape", "2,2")), StatusCode::kInvalidArgument,
                       {"kernel_shape"}));
  EXPECT_TRUE(rejected(parse_max_pool(kernel_2x2().set("strides", 1.0f)), StatusCode::kInvalidArgument,
                       {"strides"}));
  EXPECT_TRUE(rejected(parse_max_pool(kernel_2x2().set("ceil_mode", Ints{1})), StatusCode::kInvalidArgument,
                       {"ceil_mode"}));
  EXPECT_TRUE(rejected(parse_max_pool(kernel_2x2().set("auto_pad", int64_t{0})), StatusCode::kInvalidArgument,
                       {"auto_pad"}));
}

TEST(InvalidAttributes, StorageOrderNotZeroOrOne) {
  for (int64_t storage_order : {2, -1}) {
    EXPECT_TRUE(rejected(parse_max_pool(kernel_2x2().set("storage_order", storage_order)),
                         StatusCode::kInvalidArgument, {"storage_order"}));
  }
}

TEST(InvalidAttributes, CeilModeNotZeroOrOne) {
  for (int64_t ceil_mode : {2, -1}) {
    EXPECT_TRUE(rejected(parse_max_pool(kernel_2x2().set("ceil_mode", ceil_mode)), StatusCode::kInvalidArgument,
                         {"ceil_mode"}));
  }
}

// ---- The same rules in a hand-built PoolAttributes (its fields are public),
// ---- which max_pool must refuse too: it "validates its arguments first".
// ---- Unknown names, wrong kinds, unknown auto_pad strings and a ceil_mode
// ---- other than 0/1 cannot be expressed in the struct.

class HandBuiltAttributes : public InvalidInput {
 protected:
  // Breaks one field of valid attributes, calls max_pool with Indices, and
  // checks the rejection and that nothing was written.
  void expect_rejected(const std::function<void(PoolAttributes*)>& break_one_field,
                       std::initializer_list<const char*> names) {
    PoolAttributes attributes = valid_attributes();
    break_one_field(&attributes);
    EXPECT_TRUE(rejected(call_with(attributes), StatusCode::kInvalidArgument, names));
    EXPECT_TRUE(outputs_untouched());
  }
};

TEST_F(HandBuiltAttributes, MissingKernelShape) {
  expect_rejected([](PoolAttributes* a) { a->kernel_shape.clear(); }, {"kernel_shape"});
}

TEST_F(HandBuiltAttributes, ZeroKernel) {
  expect_rejected([](PoolAttributes* a) { a->kernel_shape = {0, 2}; }, {"kernel_shape"});
}

TEST_F(HandBuiltAttributes, NegativeKernel) {
  expect_rejected([](PoolAttributes* a) { a->kernel_shape = {2, -1}; }, {"kernel_shape"});
}

TEST_F(HandBuiltAttributes, ZeroStride) {
  expect_rejected([](PoolAttributes* a) { a->strides = {0, 1}; }, {"strides"});
}

TEST_F(HandBuiltAttributes, NegativeStride) {
  expect_rejected([](PoolAttributes* a) { a->strides = {1, -2}; }, {"strides"});
}

TEST_F(HandBuiltAttributes, ZeroDilation) {
  expect_rejected([](PoolAttributes* a) { a->dilations = {0, 1}; }, {"dilations"});
}

TEST_F(HandBuiltAttributes, NegativeDilation) {
  expect_rejected([](PoolAttributes* a) { a->dilations = {1, -1}; }, {"dilations"});
}

TEST_F(HandBuiltAttributes, NegativePads) {
  expect_rejected([](PoolAttributes* a) { a->pads = {0, -1, 0, 0}; }, {"pads"});
}

TEST_F(HandBuiltAttributes, PadsOfWrongLength) {
  expect_rejected([](PoolAttributes* a) { a->pads = {1, 1}; }, {"pads"});
  expect_rejected([](PoolAttributes* a) { a->pads = {1, 1, 1, 1, 1, 1}; }, {"pads"});
}

TEST_F(HandBuiltAttributes, StridesOfWrongLength) {
  expect_rejected([](PoolAttributes* a) { a->strides = {1}; }, {"strides"});
}

TEST_F(HandBuiltAttributes, DilationsOfWrongLength) {
  expect_rejected([](PoolAttributes* a) { a->dilations = {1, 1, 1}; }, {"dilations"});
}

TEST_F(HandBuiltAttributes, AutoPadWithExplicitNonZeroPads) {
  expect_rejected(
      [](PoolAttributes* a) {
        a->auto_pad = onnxpool::AutoPad::kSameUpper;
        a->pads = {1, 0, 0, 1};
      },
      {"auto_pad", "pads"});
}

TEST_F(HandBuiltAttributes, StorageOrderNotZeroOrOne) {
  expect_rejected([](PoolAttributes* a) { a->storage_order = 2; }, {"storage_order"});
  expect_rejected([](PoolAttributes* a) { a->storage_order = -1; }, {"storage_order"});
}

// ---- Rules on the tensors, and on attributes against the input shape ----

TEST_F(InvalidInput, KernelShapeRankDiffersFromInputSpatialRank) {
  PoolAttributes attributes;
  ASSERT_TRUE(PoolAttributes::parse(PoolOp::kMaxPool, Attributes().set("kernel_shape", Ints{2}), &attributes).is_ok());
  Ints shape;
  EXPECT_EQ(onnxpool::infer_output_shape(attributes, X.shape(), &shape).code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(rejected(call_with(attributes), StatusCode::kInvalidArgument, {"kernel_shape"}));
  EXPECT_TRUE(outputs_untouched());
}

TEST_F(InvalidInput, InputRankBelowThree) {
  PoolAttributes attributes;
  ASSERT_TRUE(PoolAttributes::parse(PoolOp::kMaxPool, Attributes().set("kernel_shape", Ints{2}), &attributes).is_ok());
  Ints shape;
  EXPECT_EQ(onnxpool::infer_output_shape(attributes, {2, 6}, &shape).code(), StatusCode::kInvalidArgument);
  const TensorView x(X.data(), X.type(), Ints{2, 6});
  const TensorView indices = indices_view(onnxpool::ElementType::kInt64, {2, 5});
  EXPECT_TRUE(rejected(onnxpool::max_pool(attributes, x, y_view(onnxpool::ElementType::kFloat32, {2, 5}), &indices),
                       StatusCode::kInvalidArgument, {"X"}));
  EXPECT_TRUE(outputs_untouched());
}

// ONNX allows any number of spatial axes; the library builds 1D to 3D, so a
// rank-6 input is valid ONNX that it does not support. Whether parse already
// refuses a 4-axis kernel_shape or max_pool refuses X is the library's choice.
TEST_F(InvalidInput, RankAboveFiveIsUnsupported) {
  const Ints ones{1, 1, 1, 1};
  PoolAttributes attributes;
  Status status = PoolAttributes::parse(PoolOp::kMaxPool, Attributes().set("kernel_shape", ones), &attributes);
  if (status.is_ok()) {
    const Ints shape{1, 1, 2, 2, 2, 2};
    const TensorView x(X.data(), X.type(), shape);
    const TensorView indices = indices_view(onnxpool::ElementType::kInt64, shape);
    status = onnxpool::max_pool(attributes, x, y_view(onnxpool::ElementType::kFloat32, shape), &indices);
  }
  EXPECT_TRUE(rejected(status, StatusCode::kUnsupported, {"X", "kernel_shape"}));
  EXPECT_TRUE(outputs_untouched());
}

// A bare nullptr would be ambiguous between TensorView's two constructors.
void* const kNullOutput = nullptr;

TEST_F(InvalidInput, NullDataPointers) {
  EXPECT_TRUE(rejected(call_with_x(TensorView(static_cast<const void*>(nullptr), X.type(), X.shape())),
                       StatusCode::kInvalidArgument, {"X"}));
  EXPECT_TRUE(outputs_untouched());
  const TensorView indices = indices_view();
  EXPECT_TRUE(rejected(onnxpool::max_pool(valid_attributes(), x_view(),
                                          TensorView(kNullOutput, onnxpool::ElementType::kFloat32, Ints{1, 2, 4, 5}), &indices),
                       StatusCode::kInvalidArgument, {"Y"}));
  EXPECT_TRUE(outputs_untouched());
  EXPECT_TRUE(rejected(call_with_indices(TensorView(kNullOutput, onnxpool::ElementType::kInt64, Ints{1, 2, 4, 5})),
                       StatusCode::kInvalidArgument, {"Indices"}));
  EXPECT_TRUE(outputs_untouched());
}

TEST_F(InvalidInput, WrongYShape) {
  for (const Ints& shape : {Ints{1, 2, 4, 4}, Ints{1, 2, 5, 6}, Ints{2, 2, 4, 5}, Ints{1, 2, 20}}) {
    EXPECT_TRUE(rejected(call_with_y(y_view(onnxpool::ElementType::kFloat32, shape)), StatusCode::kInvalidArgument,
                         {"Y"}))
        << shape_to_string(shape);
  }
  EXPECT_TRUE(outputs_untouched());
}

TEST_F(InvalidInput, WrongYType) {
  for (auto type : {onnxpool::ElementType::kFloat16, onnxpool::ElementType::kFloat64, onnxpool::ElementType::kInt64}) {
    EXPECT_TRUE(rejected(call_with_y(y_view(type)), StatusCode::kInvalidArgument, {"Y"})) << type_label(type);
  }
  EXPECT_TRUE(outputs_untouched());
}

TEST_F(InvalidInput, WrongIndicesTypeOrShape) {
  for (auto type : {onnxpool::ElementType::kFloat32, onnxpool::ElementType::kFloat64, onnxpool::ElementType::kInt8}) {
    EXPECT_TRUE(rejected(call_with_indices(indices_view(type)), StatusCode::kInvalidArgument, {"Indices"}))
        << type_label(type);
  }
  for (const Ints& shape : {Ints{1, 2, 4, 4}, Ints{1, 2, 20}, Ints{1, 2, 5, 6}}) {
    EXPECT_TRUE(rejected(call_with_indices(indices_view(onnxpool::ElementType::kInt64, shape)),
                         StatusCode::kInvalidArgument, {"Indices"}))
        << shape_to_string(shape);
  }
  // Indices is checked before anything is written: Y stays untouched too.
  EXPECT_TRUE(outputs_untouched());
}

TEST_F(InvalidInput, DilatedKernelWiderThanThePaddedInputByMoreThanAStride) {
  // 3 taps 4 apart cover 9 rows, 3 more than 5 + 1 with stride 1: ONNX's
  // output size floor((6 - 9) / 1) + 1 is negative. (An overhang within a
  // stride is valid: window_wider_than_input_test.cpp.)
  PoolAttributes attributes;
  ASSERT_TRUE(PoolAttributes::parse(PoolOp::kMaxPool,
                                    Attributes().set("kernel_shape", Ints{3, 1}).set("dilations", Ints{4, 1}).set("pads", Ints{1, 0, 0, 0}),
                                    &attributes).is_ok());
  Ints shape;
  EXPECT_TRUE(rejected(onnxpool::infer_output_shape(attributes, X.shape(), &shape), StatusCode::kInvalidArgument,
                       {"kernel_shape", "dilations"}));
  EXPECT_TRUE(rejected(call_with(attributes), StatusCode::kInvalidArgument, {"kernel_shape", "dilations"}));
  EXPECT_TRUE(outputs_untouched());
}

// A pointer that must never be read: the shape alone has to be refused.
const void* const kNeverDereferenced = reinterpret_cast<const void*>(uintptr_t{0x10});

TEST_F(InvalidInput, ElementCountOverflow) {
  // 2^40 x 2^40 elements overflow int64; stride 2^40 keeps Y a valid [1,1,1,1].
  const int64_t huge = int64_t{1} << 40;
  PoolAttributes attributes;
  ASSERT_TRUE(PoolAttributes::parse(PoolOp::kMaxPool,
                                    Attributes().set("kernel_shape", Ints{1, 1}).set("strides", Ints{huge, huge}),
                                    &attributes).is_ok());
  const Ints x_shape{1, 1, huge, huge};
  Ints shape;
  EXPECT_EQ(onnxpool::infer_output_shape(attributes, x_shape, &shape).code(), StatusCode::kInvalidArgument);
  const TensorView indices = indices_view(onnxpool::ElementType::kInt64, {1, 1, 1, 1});
  EXPECT_TRUE(rejected(onnxpool::max_pool(attributes, TensorView(kNeverDereferenced, X.type(), x_shape),
                                          y_view(onnxpool::ElementType::kFloat32, {1, 1, 1, 1}), &indices),
                       StatusCode::kInvalidArgument, {"X"}));
  EXPECT_TRUE(outputs_untouched());
}

TEST_F(InvalidInput, ByteSizeOverflow) {
  // 2^62 float64 elements fit int64 but their 2^65 bytes do not fit any size_t.
  const int64_t huge = int64_t{1} << 31;
  PoolAttributes attributes;
  ASSERT_TRUE(PoolAttributes::parse(PoolOp::kMaxPool,
                                    Attributes().set("kernel_shape", Ints{1, 1}).set("strides", Ints{huge, huge}),
                                    &attributes).is_ok());
  const TensorView indices = indices_view(onnxpool::ElementType::kInt64, {1, 1, 1, 1});
  EXPECT_TRUE(rejected(onnxpool::max_pool(attributes,
                                          TensorView(kNeverDereferenced, onnxpool::ElementType::kFloat64, Ints{1, 1, huge, huge}),
                                          y_view(onnxpool::ElementType::kFloat64, {1, 1, 1, 1}), &indices),
                       StatusCode::kInvalidArgument, {"X"}));
  EXPECT_TRUE(outputs_untouched());
}

TEST_F(InvalidInput, OutputByteSizeOverflow) {
  // Pads 2^41 long on the first axis and 2^28 on the second give a valid
  // shape of 2 x 2^41 x 2^28 elements: ONNX's, and more bytes than any buffer.
  const int64_t first = int64_t{1} << 40, second = (int64_t{1} << 27) - 8;
  PoolAttributes attributes;
  ASSERT_TRUE(PoolAttributes::parse(PoolOp::kMaxPool,
                                    Attributes().set("kernel_shape", Ints{1, 1}).set("pads", Ints{first, second, first, second}),
                                    &attributes).is_ok());
  Ints shape;
  ASSERT_TRUE(onnxpool::infer_output_shape(attributes, X.shape(), &shape).is_ok());
  ASSERT_EQ(shape, (Ints{1, 2, 5 + 2 * first, 6 + 2 * second}));
  const TensorView indices = indices_view(onnxpool::ElementType::kInt64, shape);
  EXPECT_TRUE(rejected(onnxpool::max_pool(attributes, x_view(), y_view(onnxpool::ElementType::kFloat32, shape), &indices),
                       StatusCode::kInvalidArgument, {"Y"}));
  EXPECT_TRUE(outputs_untouched());
}

TEST_F(InvalidInput, NegativeDimensions) {
  for (const Ints& shape : {Ints{1, -2, 5, 6}, Ints{1, 2, -5, 6}, Ints{-1, 2, 5, 6}}) {
    Ints inferred;
    EXPECT_EQ(onnxpool::infer_output_shape(valid_attributes(), shape, &inferred).code(), StatusCode::kInvalidArgument)
        << shape_to_string(shape);
    EXPECT_TRUE(rejected(call_with_x(TensorView(X.data(), X.type(), shape)), StatusCode::kInvalidArgument, {"X"}))
        << shape_to_string(shape);
  }
  EXPECT_TRUE(outputs_untouched());
}

// int64 is not a MaxPool type in ONNX; either code is a fair answer, but the
// message must point at X.
TEST_F(InvalidInput, ElementTypeMaxPoolDoesNotTake) {
  // Y shares X's type, as MaxPool requires, so that only X's type is at fault.
  HostTensor x64(onnxpool::ElementType::kInt64, X.shape());
  const TensorView indices = indices_view();
  const Status status = onnxpool::max_pool(valid_attributes(), x64.view(), y_view(onnxpool::ElementType::kInt64), &indices);
  EXPECT_FALSE(status.is_ok());
  EXPECT_TRUE(status.code() == StatusCode::kInvalidArgument || status.code() == StatusCode::kUnsupported)
      << code_name(status.code());
  EXPECT_TRUE(message_names(status.message(), "X")) << status.message();
  EXPECT_TRUE(outputs_untouched());
}

TEST(MessageNames, MatchesWholeWordsOnly) {
  EXPECT_TRUE(message_names("X has rank 2", "X"));
  EXPECT_TRUE(message_names("input 'X': negative", "X"));
  EXPECT_TRUE(message_names("kernel_shape[0] must be positive", "kernel_shape"));
  EXPECT_FALSE(message_names("MaxPool failed", "X"));
  EXPECT_FALSE(message_names("X_shape", "X"));
  EXPECT_FALSE(message_names("pads_begin", "pads"));
}

}  // namespace
}  // namespace onnxpool_test
