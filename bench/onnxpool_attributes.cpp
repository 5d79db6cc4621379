#include "onnxpool_attributes.h"

#include <vector>

namespace onnxpool_bench {

onnxpool::PoolOp onnxpool_op(const PoolOpSpec& op) {
  switch (op.reduction) {
    case Reduction::kMax:
      return op.global ? onnxpool::PoolOp::kGlobalMaxPool : onnxpool::PoolOp::kMaxPool;
    case Reduction::kAverage:
      return op.global ? onnxpool::PoolOp::kGlobalAveragePool : onnxpool::PoolOp::kAveragePool;
    case Reduction::kLp:
      return op.global ? onnxpool::PoolOp::kGlobalLpPool : onnxpool::PoolOp::kLpPool;
  }
  return onnxpool::PoolOp::kMaxPool;
}

onnxpool::Status onnxpool_case_attributes(const PoolOpSpec& op, const PoolCase& pc,
                                          onnxpool::PoolAttributes* attributes) {
  onnxpool::Attributes raw;
  if (!op.global) {
    raw.set("kernel_shape", std::vector<int64_t>{pc.kernel_h, pc.kernel_w})
        .set("strides", std::vector<int64_t>{pc.stride_h, pc.stride_w})
        .set("pads", std::vector<int64_t>{pc.pad_top, pc.pad_left, pc.pad_bottom, pc.pad_right});
  }
  if (op.reduction == Reduction::kAverage && !op.global) {
    raw.set("count_include_pad", static_cast<int64_t>(kCountIncludePad ? 1 : 0));
  }
  if (op.reduction == Reduction::kLp) raw.set("p", static_cast<int64_t>(kLpP));
  onnxpool::Status status = onnxpool::PoolAttributes::parse(onnxpool_op(op), raw, attributes);
  if (!status) return onnxpool::Status::invalid_argument("onnxpool attributes: " + status.message());

  std::vector<int64_t> output_shape;
  status = onnxpool::infer_output_shape(*attributes, {pc.n, pc.c, pc.h, pc.w}, &output_shape);
  if (!status) return onnxpool::Status::invalid_argument("onnxpool shape inference: " + status.message());
  // A disagreement here would make every later comparison meaningless.
  if (output_shape != std::vector<int64_t>{pc.n, pc.c, pc.out_h(), pc.out_w()}) {
    return onnxpool::Status::invalid_argument("onnxpool infers a different output shape than the benchmark case");
  }
  return onnxpool::Status::ok();
}

}  // namespace onnxpool_bench
