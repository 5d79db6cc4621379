#include "support/shape_inference_check.h"

#include "reference/host_tensor.h"

namespace onnxpool_test {

testing::AssertionResult shape_inference_matches(const onnxpool::PoolAttributes& attributes, const PoolSpec& spec,
                                                 const std::vector<int64_t>& x_shape,
                                                 const std::vector<int64_t>& expected_shape, bool check_pads,
                                                 std::vector<int64_t>* shape) {
  onnxpool::Status status = onnxpool::infer_output_shape(attributes, x_shape, shape);
  if (!status) return testing::AssertionFailure() << "infer_output_shape failed: " << status.message();
  if (*shape != expected_shape) {
    return testing::AssertionFailure() << "infer_output_shape gave " << shape_to_string(*shape) << ", expected "
                                       << shape_to_string(expected_shape);
  }
  if (!check_pads) return testing::AssertionSuccess();
  std::vector<int64_t> pads;
  status = onnxpool::resolve_pads(attributes, x_shape, &pads);
  if (!status) return testing::AssertionFailure() << "resolve_pads failed: " << status.message();
  const std::vector<int64_t> spatial(x_shape.begin() + 2, x_shape.end());
  const std::vector<int64_t> expected_pads = window_geometry(spec, spatial).onnx_pads();
  if (pads != expected_pads) {
    return testing::AssertionFailure() << "resolve_pads gave " << shape_to_string(pads) << ", expected "
                                       << shape_to_string(expected_pads);
  }
  return testing::AssertionSuccess();
}

}  // namespace onnxpool_test
