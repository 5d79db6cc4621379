#include "xnnpack_pool.h"

#include <pthreadpool.h>
#include <xnnpack.h>

#include <cmath>
#include <string>
#include <vector>

#include "../aligned_buffer.h"

namespace onnxpool_bench {
namespace {

void nchw_to_nhwc(const float* src, float* dst, int64_t n, int64_t c, int64_t hw) {
  for (int64_t b = 0; b < n; ++b)
    for (int64_t ch = 0; ch < c; ++ch)
      for (int64_t p = 0; p < hw; ++p) dst[(b * hw + p) * c + ch] = src[(b * c + ch) * hw + p];
}

void nhwc_to_nchw(const float* src, float* dst, int64_t n, int64_t c, int64_t hw) {
  for (int64_t b = 0; b < n; ++b)
    for (int64_t ch = 0; ch < c; ++ch)
      for (int64_t p = 0; p < hw; ++p) dst[(b * c + ch) * hw + p] = src[(b * hw + p) * c + ch];
}

bool initialize_xnnpack() {
  // xnn_initialize is reference-counted and cheap after the first call, but
  // once per process is all that is needed.
  static const bool ok = xnn_initialize(nullptr) == xnn_status_success;
  return ok;
}

class XnnpackMaxPool final : public PoolRunner {
 public:
  XnnpackMaxPool(const PoolCase& pc, int threads, const float* input_nchw) : case_(pc) {
    if (!initialize_xnnpack()) {
      fail("XNNPACK: xnn_initialize failed (unsupported CPU?)");
      return;
    }
    pool_ = pthreadpool_create(static_cast<size_t>(threads));
    if (pool_ == nullptr || pthreadpool_get_threads_count(pool_) != static_cast<size_t>(threads)) {
      fail("XNNPACK: pthreadpool_create(" + std::to_string(threads) + ") failed");
      return;
    }
    // XNNPACK kernels may read XNN_EXTRA_BYTES past the end of the input.
    const size_t extra = (XNN_EXTRA_BYTES + sizeof(float) - 1) / sizeof(float);
    input_ = AlignedBuffer<float>(static_cast<size_t>(pc.input_elements()) + extra, 0.0f);
    output_ = AlignedBuffer<float>(static_cast<size_t>(pc.output_elements()), 0.0f);
    nchw_to_nhwc(input_nchw, input_.data(), pc.n, pc.c, pc.h * pc.w);

    const size_t channels = static_cast<size_t>(pc.c);
    xnn_status status = xnn_create_max_pooling2d_nhwc_f32(
        static_cast<uint32_t>(pc.pad_top), static_cast<uint32_t>(pc.pad_right),
        static_cast<uint32_t>(pc.pad_bottom), static_cast<uint32_t>(pc.pad_left),
        static_cast<uint32_t>(pc.kernel_h), static_cast<uint32_t>(pc.kernel_w),
        static_cast<uint32_t>(pc.stride_h), static_cast<uint32_t>(pc.stride_w),
        /*dilation_height=*/1, /*dilation_width=*/1, channels,
        /*input_pixel_stride=*/channels, /*output_pixel_stride=*/channels,
        /*output_min=*/-INFINITY, /*output_max=*/INFINITY, /*flags=*/0, &operator_);
    if (status != xnn_status_success) {
      fail("XNNPACK: xnn_create_max_pooling2d_nhwc_f32 failed, status " +
           std::to_string(static_cast<int>(status)));
      return;
    }
    status = xnn_setup_max_pooling2d_nhwc_f32(operator_, static_cast<size_t>(pc.n),
                                              static_cast<size_t>(pc.h), static_cast<size_t>(pc.w),
                                              input_.data(), output_.data(), pool_);
    if (status != xnn_status_success) {
      fail("XNNPACK: xnn_setup_max_pooling2d_nhwc_f32 failed, status " +
           std::to_string(static_cast<int>(status)));
    }
  }

  ~XnnpackMaxPool() override {
    if (operator_ != nullptr) xnn_delete_operator(operator_);
    if (pool_ != nullptr) pthreadpool_destroy(pool_);
  }

  bool run() override {
    const xnn_status status = xnn_run_operator(operator_, pool_);
    if (status != xnn_status_success) {
      return fail("XNNPACK: xnn_run_operator failed, status " +
                  std::to_string(static_cast<int>(status)));
    }
    return true;
  }

  std::vector<float> output_nchw() const override {
    std::vector<float> values(output_.size());
    nhwc_to_nchw(output_.data(), values.data(), case_.n, case_.c, case_.out_h() * case_.out_w());
    return values;
  }

 private:
  PoolCase case_;
  pthreadpool_t pool_ = nullptr;
  xnn_operator_t operator_ = nullptr;
  AlignedBuffer<float> input_;
  AlignedBuffer<float> output_;
};

}  // namespace

std::unique_ptr<PoolRunner> make_xnnpack_max_pool(const PoolCase& pool_case, int threads,
                                                  const float* input_nchw) {
  return std::make_unique<XnnpackMaxPool>(pool_case, threads, input_nchw);
}

}  // namespace onnxpool_bench
