#include "xnnpack_pool.h"

#include <pthreadpool.h>
#include <xnnpack.h>

#include <algorithm>
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

std::string status_text(const char* call, xnn_status status) {
  return std::string("XNNPACK: ") + call + " failed, status " +
         std::to_string(static_cast<int>(status));
}

class XnnpackPool final : public PoolRunner {
 public:
  XnnpackPool(const PoolOpSpec& op, const PoolCase& pc, XnnpackLayout layout, int threads,
              const float* input_nchw)
      : case_(pc), layout_(layout) {
    if (!xnnpack_has(op, layout)) {
      fail(std::string("XNNPACK has no ") + op.name + " in " + xnnpack_layout_name(layout));
      return;
    }
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
    if (layout == XnnpackLayout::kNhwc) {
      nchw_to_nhwc(input_nchw, input_.data(), pc.n, pc.c, pc.h * pc.w);
    } else {
      std::copy(input_nchw, input_nchw + pc.input_elements(), input_.data());
    }

    const size_t channels = static_cast<size_t>(pc.c);
    const auto u32 = [](int64_t v) { return static_cast<uint32_t>(v); };
    xnn_status status;
    if (op.reduction == Reduction::kMax) {
      status = xnn_create_max_pooling2d_nhwc_f32(
          u32(pc.pad_top), u32(pc.pad_right), u32(pc.pad_bottom), u32(pc.pad_left),
          u32(pc.kernel_h), u32(pc.kernel_w), u32(pc.stride_h), u32(pc.stride_w),
          /*dilation_height=*/1, /*dilation_width=*/1, channels,
          /*input_pixel_stride=*/channels, /*output_pixel_stride=*/channels,
          /*output_min=*/-INFINITY, /*output_max=*/INFINITY, /*flags=*/0, &operator_);
      if (status != xnn_status_success) {
        fail(status_text("xnn_create_max_pooling2d_nhwc_f32", status));
        return;
      }
      status = xnn_setup_max_pooling2d_nhwc_f32(operator_, static_cast<size_t>(pc.n),
                                                static_cast<size_t>(pc.h),
                                                static_cast<size_t>(pc.w), input_.data(),
                                                output_.data(), pool_);
      if (status != xnn_status_success) fail(status_text("xnn_setup_max_pooling2d_nhwc_f32", status));
    } else if (!op.global) {
      status = xnn_create_average_pooling2d_nhwc_f32(
          u32(pc.pad_top), u32(pc.pad_right), u32(pc.pad_bottom), u32(pc.pad_left),
          u32(pc.kernel_h), u32(pc.kernel_w), u32(pc.stride_h), u32(pc.stride_w), channels,
          /*input_pixel_stride=*/channels, /*output_pixel_stride=*/channels,
          /*output_min=*/-INFINITY, /*output_max=*/INFINITY, /*flags=*/0, &operator_);
      if (status != xnn_status_success) {
        fail(status_text("xnn_create_average_pooling2d_nhwc_f32", status));
        return;
      }
      status = xnn_setup_average_pooling2d_nhwc_f32(operator_, static_cast<size_t>(pc.n),
                                                    static_cast<size_t>(pc.h),
                                                    static_cast<size_t>(pc.w), input_.data(),
                                                    output_.data(), pool_);
      if (status != xnn_status_success) {
        fail(status_text("xnn_setup_average_pooling2d_nhwc_f32", status));
      }
    } else if (layout == XnnpackLayout::kNhwc) {
      status = xnn_create_global_average_pooling_nwc_f32(
          channels, /*input_stride=*/channels, /*output_stride=*/channels,
          /*output_min=*/-INFINITY, /*output_max=*/INFINITY, /*flags=*/0, &operator_);
      if (status != xnn_status_success) {
        fail(status_text("xnn_create_global_average_pooling_nwc_f32", status));
        return;
      }
      status = xnn_setup_global_average_pooling_nwc_f32(
          operator_, static_cast<size_t>(pc.n), static_cast<size_t>(pc.h * pc.w), input_.data(),
          output_.data(), pool_);
      if (status != xnn_status_success) {
        fail(status_text("xnn_setup_global_average_pooling_nwc_f32", status));
      }
    } else {
      status = xnn_create_global_average_pooling_ncw_f32(
          channels, /*output_min=*/-INFINITY, /*output_max=*/INFINITY, /*flags=*/0, &operator_);
      if (status != xnn_status_success) {
        fail(status_text("xnn_create_global_average_pooling_ncw_f32", status));
        return;
      }
      status = xnn_setup_global_average_pooling_ncw_f32(
          operator_, static_cast<size_t>(pc.n), static_cast<size_t>(pc.h * pc.w), input_.data(),
          output_.data(), pool_);
      if (status != xnn_status_success) {
        fail(status_text("xnn_setup_global_average_pooling_ncw_f32", status));
      }
    }
  }

  ~XnnpackPool() override {
    if (operator_ != nullptr) xnn_delete_operator(operator_);
    if (pool_ != nullptr) pthreadpool_destroy(pool_);
  }

  bool run() override {
    const xnn_status status = xnn_run_operator(operator_, pool_);
    if (status != xnn_status_success) return fail(status_text("xnn_run_operator", status));
    return true;
  }

  std::vector<float> output_nchw() const override {
    std::vector<float> values(output_.size());
    if (layout_ == XnnpackLayout::kNhwc) {
      nhwc_to_nchw(output_.data(), values.data(), case_.n, case_.c,
                   case_.out_h() * case_.out_w());
    } else {
      std::copy(output_.data(), output_.data() + output_.size(), values.data());
    }
    return values;
  }

 private:
  PoolCase case_;
  XnnpackLayout layout_;
  pthreadpool_t pool_ = nullptr;
  xnn_operator_t operator_ = nullptr;
  AlignedBuffer<float> input_;
  AlignedBuffer<float> output_;
};

}  // namespace

const char* xnnpack_layout_name(XnnpackLayout layout) {
  return layout == XnnpackLayout::kNhwc ? "nhwc" : "nchw";
}

bool xnnpack_has(const PoolOpSpec& op, XnnpackLayout layout) {
  if (op.reduction == Reduction::kLp) return false;
  if (layout == XnnpackLayout::kNchw) return op.reduction == Reduction::kAverage && op.global;
  return true;
}

std::unique_ptr<PoolRunner> make_xnnpack_pool(const PoolOpSpec& op, const PoolCase& pool_case,
                                              XnnpackLayout layout, int threads,
                                              const float* input_nchw) {
  return std::make_unique<XnnpackPool>(op, pool_case, layout, threads, input_nchw);
}

}  // namespace onnxpool_bench
