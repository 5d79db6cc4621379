#include "onnxpool_pool.h"

#include <onnxpool/onnxpool.h>

#include <string>
#include <vector>

#include "aligned_buffer.h"
#include "onnxpool_attributes.h"

namespace onnxpool_bench {
namespace {

class OnnxpoolPool final : public PoolRunner {
 public:
  OnnxpoolPool(const PoolOpSpec& op, const PoolCase& pc, bool with_indices, int threads,
               const float* input_nchw, bool created_operator)
      : with_indices_(with_indices), created_operator_(created_operator) {
    if (with_indices && op.reduction != Reduction::kMax) {
      fail("Indices exist only for MaxPool");
      return;
    }
    onnxpool::Status status = onnxpool_case_attributes(op, pc, &attributes_);
    if (!status) {
      fail(status.message());
      return;
    }
    const std::vector<int64_t> input_shape = {pc.n, pc.c, pc.h, pc.w};
    const std::vector<int64_t> output_shape = {pc.n, pc.c, pc.out_h(), pc.out_w()};

    status = onnxpool::set_num_threads(threads);
    if (!status) {
      fail("onnxpool set_num_threads: " + status.message());
      return;
    }

    output_ = AlignedBuffer<float>(static_cast<size_t>(pc.output_elements()), 0.0f);
    x_ = onnxpool::TensorView(input_nchw, onnxpool::ElementType::kFloat32, input_shape);
    y_ = onnxpool::TensorView(output_.data(), onnxpool::ElementType::kFloat32, output_shape);
    if (with_indices_) {
      indices_ = AlignedBuffer<int64_t>(output_.size(), 0);
      indices_view_ =
          onnxpool::TensorView(indices_.data(), onnxpool::ElementType::kInt64, output_shape);
    }
    if (created_operator_) {
      // After set_num_threads: an operator keeps the settings of its creation.
      status = onnxpool::PoolOperator::create(attributes_, input_shape, onnxpool::ElementType::kFloat32,
                                              &operator_);
      if (!status) fail("onnxpool PoolOperator::create: " + status.message());
    }
  }

  bool run() override {
    // Validation inside pool() (and the tensor checks of run()) are timed
    // on purpose: every caller pays them.
    const onnxpool::TensorView* indices = with_indices_ ? &indices_view_ : nullptr;
    const onnxpool::Status status =
        created_operator_ ? operator_.run(x_, y_, indices) : onnxpool::pool(attributes_, x_, y_, indices);
    if (!status) return fail("onnxpool: " + status.message());
    return true;
  }

  std::vector<float> output_nchw() const override {
    return std::vector<float>(output_.data(), output_.data() + output_.size());
  }

  bool has_indices() const override { return with_indices_; }

  std::vector<int64_t> indices() const override {
    return std::vector<int64_t>(indices_.data(), indices_.data() + indices_.size());
  }

  std::string label() const override {
    return onnxpool::cpu_variant_name(onnxpool::active_cpu_variant());
  }

 private:
  bool with_indices_;
  bool created_operator_;
  onnxpool::PoolAttributes attributes_;
  onnxpool::PoolOperator operator_;
  AlignedBuffer<float> output_;
  AlignedBuffer<int64_t> indices_;
  onnxpool::TensorView x_;
  onnxpool::TensorView y_;
  onnxpool::TensorView indices_view_;
};

}  // namespace

std::unique_ptr<PoolRunner> make_onnxpool_pool(const PoolOpSpec& op, const PoolCase& pool_case,
                                               bool with_indices, int threads,
                                               const float* input_nchw) {
  return std::make_unique<OnnxpoolPool>(op, pool_case, with_indices, threads, input_nchw, false);
}

std::unique_ptr<PoolRunner> make_onnxpool_operator(const PoolOpSpec& op, const PoolCase& pool_case, int threads,
                                                   const float* input_nchw) {
  return std::make_unique<OnnxpoolPool>(op, pool_case, false, threads, input_nchw, true);
}

}  // namespace onnxpool_bench
