#include "support/pool_check.h"

#include <exception>

#include "reference/pool_geometry.h"
#include "support/approx_compare.h"
#include "support/onnx_attributes.h"
#include "support/pool_expectation.h"
#include "support/shape_inference_check.h"
#include "support/tensor_compare.h"
#include "support/test_settings.h"
#include "support/unwritten_bytes.h"

namespace onnxpool_test {

using onnxpool::PoolOp;
using onnxpool::Status;

namespace {

testing::AssertionResult compare_with_reference(const PoolCase& c, const PoolExpectation* given) {
  onnxpool::PoolAttributes attributes;
  Status status = onnxpool::PoolAttributes::parse(c.op, c.attributes, &attributes);
  if (!status) return testing::AssertionFailure() << "PoolAttributes::parse failed: " << status.message();

  const PoolExpectation computed = given != nullptr ? PoolExpectation{} : expected_pool_result(c);
  const PoolExpectation& expected = given != nullptr ? *given : computed;
  std::vector<int64_t> shape;
  testing::AssertionResult shapes = shape_inference_matches(attributes, c.spec, c.X.shape(), expected.values.shape(),
                                                            !is_global_pool(c.op), &shape);
  if (!shapes) return shapes;

  const HostTensor X_before = c.X;
  HostTensor Y(c.X.type(), shape);
  Y.fill_bytes(kUnwrittenByte);
  status = call_operator(c.op, attributes, c.X.view(), Y.view(), c.through_dispatcher);
  if (!status) return testing::AssertionFailure() << onnxpool::op_name(c.op) << " failed: " << status.message();
  if (!c.X.same_bytes(X_before)) return testing::AssertionFailure() << onnxpool::op_name(c.op) << " wrote into its input X";

  if (expected.exact) return tensors_identical("Y", expected.values, Y);
  return tensors_close("Y", c.X.type(), expected.values, expected.allowed, Y);
}

}  // namespace

Status call_operator(PoolOp op, const onnxpool::PoolAttributes& attributes, const onnxpool::TensorView& X,
                     const onnxpool::TensorView& Y, bool through_dispatcher) {
  if (through_dispatcher) return onnxpool::pool(attributes, X, Y);
  switch (op) {
    case PoolOp::kMaxPool: return onnxpool::max_pool(attributes, X, Y);
    case PoolOp::kAveragePool: return onnxpool::average_pool(attributes, X, Y);
    case PoolOp::kLpPool: return onnxpool::lp_pool(attributes, X, Y);
    case PoolOp::kGlobalMaxPool: return onnxpool::global_max_pool(attributes, X, Y);
    case PoolOp::kGlobalAveragePool: return onnxpool::global_average_pool(attributes, X, Y);
    case PoolOp::kGlobalLpPool: return onnxpool::global_lp_pool(attributes, X, Y);
  }
  return Status::internal("call_operator: unknown operator");
}

testing::AssertionResult pool_matches_reference(const PoolCase& c, const PoolExpectation* expected) {
  try {
    return compare_with_reference(c, expected);
  } catch (const std::exception& e) {
    // The reference throws only for a case that is not valid ONNX: a test bug.
    return testing::AssertionFailure() << "exception while checking the case: " << e.what();
  }
}

Status library_pool(const PoolCase& c, HostTensor* Y) {
  onnxpool::PoolAttributes attributes;
  Status status = onnxpool::PoolAttributes::parse(c.op, c.attributes, &attributes);
  if (!status) return status;
  std::vector<int64_t> shape;
  status = onnxpool::infer_output_shape(attributes, c.X.shape(), &shape);
  if (!status) return status;
  *Y = HostTensor(c.X.type(), shape);
  Y->fill_bytes(kUnwrittenByte);
  return call_operator(c.op, attributes, c.X.view(), Y->view(), c.through_dispatcher);
}

PoolCase pool_batch_case(uint64_t stream, int index, PoolOp op, const std::vector<ElementType>& types,
                         const std::vector<int>& spatial_ranks) {
  Random random(derive_seed(test_seed(), stream, static_cast<uint64_t>(index)));
  const ElementType type = random.pick(types);
  const int rank = random.pick(spatial_ranks);
  return random_pool_case(random, op, type, rank);
}

BatchOutcome run_random_pool_cases(uint64_t stream, int count, PoolOp op, const std::vector<ElementType>& types,
                                   const std::vector<int>& spatial_ranks) {
  return run_case_batch(stream, count, [&](int index) -> std::optional<std::string> {
    const PoolCase c = pool_batch_case(stream, index, op, types, spatial_ranks);
    const testing::AssertionResult result = pool_matches_reference(c);
    if (result) return std::nullopt;
    return c.describe() + "\n  " + result.message();
  });
}

}  // namespace onnxpool_test
