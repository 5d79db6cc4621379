#include "support/maxpool_check.h"

#include <exception>

#include "onnxpool/pooling.h"
#include "support/shape_inference_check.h"
#include "support/tensor_compare.h"
#include "support/test_settings.h"
#include "support/unwritten_bytes.h"

namespace onnxpool_test {
namespace {

testing::AssertionResult compare_with_reference(const MaxPoolCase& c, const MaxPoolResult* given) {
  onnxpool::PoolAttributes attributes;
  onnxpool::Status status = onnxpool::PoolAttributes::parse(onnxpool::PoolOp::kMaxPool, c.attributes, &attributes);
  if (!status) return testing::AssertionFailure() << "PoolAttributes::parse failed: " << status.message();

  const MaxPoolResult computed = given != nullptr ? MaxPoolResult{} : reference_max_pool(c.spec, c.X);
  const MaxPoolResult& expected = given != nullptr ? *given : computed;
  std::vector<int64_t> shape;
  testing::AssertionResult shapes =
      shape_inference_matches(attributes, c.spec, c.X.shape(), expected.Y.shape(), /*check_pads=*/true, &shape);
  if (!shapes) return shapes;

  const HostTensor X_before = c.X;
  HostTensor Y(c.X.type(), shape);
  HostTensor Indices(ElementType::kInt64, shape);
  Y.fill_bytes(kUnwrittenByte);
  Indices.fill_bytes(kUnwrittenByte);
  onnxpool::TensorView indices_view = Indices.view();
  status = onnxpool::max_pool(attributes, c.X.view(), Y.view(), c.with_indices ? &indices_view : nullptr);
  if (!status) return testing::AssertionFailure() << "max_pool failed: " << status.message();

  if (!c.X.same_bytes(X_before)) return testing::AssertionFailure() << "max_pool wrote into its input X";
  testing::AssertionResult values = tensors_identical("Y", expected.Y, Y);
  if (!values || !c.with_indices) return values;
  return tensors_identical("Indices", expected.Indices, Indices);
}

}  // namespace

testing::AssertionResult library_matches_reference(const MaxPoolCase& c, const MaxPoolResult* expected) {
  try {
    return compare_with_reference(c, expected);
  } catch (const std::exception& e) {
    // The reference throws only for a case that is not valid ONNX: a test bug.
    return testing::AssertionFailure() << "exception while checking the case: " << e.what();
  }
}

onnxpool::Status library_max_pool(const MaxPoolCase& c, MaxPoolResult* out) {
  onnxpool::PoolAttributes attributes;
  onnxpool::Status status = onnxpool::PoolAttributes::parse(onnxpool::PoolOp::kMaxPool, c.attributes, &attributes);
  if (!status) return status;
  std::vector<int64_t> shape;
  status = onnxpool::infer_output_shape(attributes, c.X.shape(), &shape);
  if (!status) return status;
  out->Y = HostTensor(c.X.type(), shape);
  out->Indices = c.with_indices ? HostTensor(ElementType::kInt64, shape) : HostTensor();
  out->Y.fill_bytes(kUnwrittenByte);
  out->Indices.fill_bytes(kUnwrittenByte);
  onnxpool::TensorView indices_view = out->Indices.view();
  return onnxpool::max_pool(attributes, c.X.view(), out->Y.view(), c.with_indices ? &indices_view : nullptr);
}

MaxPoolCase batch_case(uint64_t stream, int index, const std::vector<ElementType>& types,
                       const std::vector<int>& spatial_ranks) {
  Random random(derive_seed(test_seed(), stream, static_cast<uint64_t>(index)));
  const ElementType type = random.pick(types);
  const int rank = random.pick(spatial_ranks);
  return random_max_pool_case(random, type, rank);
}

BatchOutcome run_random_max_pool_cases(uint64_t stream, int count, const std::vector<ElementType>& types,
                                       const std::vector<int>& spatial_ranks) {
  return run_case_batch(stream, count, [&](int index) -> std::optional<std::string> {
    const MaxPoolCase c = batch_case(stream, index, types, spatial_ranks);
    const testing::AssertionResult result = library_matches_reference(c);
    if (result) return std::nullopt;
    return c.describe() + "\n  " + result.message();
  });
}

const std::vector<ElementType>& max_pool_types() {
  static const std::vector<ElementType> types{ElementType::kFloat32, ElementType::kFloat16,
                                              ElementType::kBFloat16, ElementType::kFloat64,
                                              ElementType::kInt8, ElementType::kUInt8};
  return types;
}

}  // namespace onnxpool_test
