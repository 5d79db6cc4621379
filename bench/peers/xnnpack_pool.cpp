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

const char* status_name(xnn_status status) {
  switch (status) {
    case xnn_status_success: return "success";
    case xnn_status_uninitialized: return "uninitialized";
    case xnn_status_invalid_parameter: return "invalid_parameter";
    case xnn_status_invalid_state: return "invalid_state";
    case xnn_status_unsupported_parameter: return "unsupported_parameter";
    case xnn_status_unsupported_hardware: return "unsupported_hardware";
    case xnn_status_out_of_memory: return "out_of_memory";
  }
  return "unknown";
}

std::string status_text(const char* call, xnn_status status) {
  return std::string("XNNPACK: ") + call + " failed, status " + status_name(status);
}

int64_t product(std::vector<int64_t>::const_iterator first, std::vector<int64_t>::const_iterator last) {
  int64_t result = 1;
  for (; first != last; ++first) result *= *first;
  return result;
}

// The node as XNNPACK's 2D operators see it. A 1D node gets a unit height;
// a global node pools one plane of (every axis but the last) x (the last),
// which holds the same values, so its max and mean are the same.
struct Window2d {
  int64_t h = 1, w = 1, kernel_h = 1, kernel_w = 1, stride_h = 1, stride_w = 1;
  int64_t dilation_h = 1, dilation_w = 1;
  int64_t pad_top = 0, pad_left = 0, pad_bottom = 0, pad_right = 0;
};

Window2d window_2d(const PoolNode& node) {
  Window2d window;
  const size_t rank = node.spatial_rank();
  if (node.op.global) {
    window.h = product(node.input.begin() + 2, node.input.end() - 1);
    window.w = node.input.back();
    window.kernel_h = window.h;
    window.kernel_w = window.w;
    return window;
  }
  // Axis `axis` of the node fills the 2D axis `rank - 1 - axis` from the right.
  const size_t first = 2 - rank;
  int64_t* extent[2] = {&window.h, &window.w};
  int64_t* kernel[2] = {&window.kernel_h, &window.kernel_w};
  int64_t* stride[2] = {&window.stride_h, &window.stride_w};
  int64_t* dilation[2] = {&window.dilation_h, &window.dilation_w};
  int64_t* pad_begin[2] = {&window.pad_top, &window.pad_left};
  int64_t* pad_end[2] = {&window.pad_bottom, &window.pad_right};
  for (size_t axis = 0; axis < rank; ++axis) {
    const size_t to = first + axis;
    *extent[to] = node.input[axis + 2];
    *kernel[to] = node.kernel[axis];
    *stride[to] = node.strides[axis];
    *dilation[to] = node.dilations[axis];
    *pad_begin[to] = node.pad_begin[axis];
    // XNNPACK sizes its output with the floor formula: ceil_mode's windows
    // come from extra bottom/right padding, which neither max nor its
    // padding-excluding average reads.
    *pad_end[to] = node.floor_mode_pad_end(axis);
  }
  return window;
}

class XnnpackPool final : public PoolRunner {
 public:
  XnnpackPool(const PoolNode& node, XnnpackLayout layout, int threads, const float* input_nchw)
      : node_(node), layout_(layout) {
    const std::string unsupported = xnnpack_unsupported(node, layout);
    if (!unsupported.empty()) {
      fail(unsupported);
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
    input_ = AlignedBuffer<float>(static_cast<size_t>(node.input_elements()) + extra, 0.0f);
    output_ = AlignedBuffer<float>(static_cast<size_t>(node.output_elements()), 0.0f);
    if (layout == XnnpackLayout::kNhwc) {
      nchw_to_nhwc(input_nchw, input_.data(), node.input[0], node.input[1], spatial_size(node.input));
    } else {
      std::copy(input_nchw, input_nchw + node.input_elements(), input_.data());
    }
    const Window2d window = window_2d(node);
    if (node.op.reduction == Reduction::kMax) {
      set_up_max_pooling(window);
    } else if (!node.op.global) {
      set_up_average_pooling(window);
    } else {
      set_up_global_average_pooling();
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
      nhwc_to_nchw(output_.data(), values.data(), node_.output[0], node_.output[1], spatial_size(node_.output));
    } else {
      std::copy(output_.data(), output_.data() + output_.size(), values.data());
    }
    return values;
  }

 private:
  static int64_t spatial_size(const std::vector<int64_t>& shape) { return product(shape.begin() + 2, shape.end()); }
  static uint32_t u32(int64_t v) { return static_cast<uint32_t>(v); }
  size_t channels() const { return static_cast<size_t>(node_.input[1]); }
  size_t batch() const { return static_cast<size_t>(node_.input[0]); }

  // Records a failed create or setup call; true when `status` is success.
  bool succeeded(const char* call, xnn_status status) {
    if (status == xnn_status_success) return true;
    fail(status_text(call, status));
    return false;
  }

  void set_up_max_pooling(const Window2d& w) {
    if (!succeeded("xnn_create_max_pooling2d_nhwc_f32",
                   xnn_create_max_pooling2d_nhwc_f32(
                       u32(w.pad_top), u32(w.pad_right), u32(w.pad_bottom), u32(w.pad_left), u32(w.kernel_h),
                       u32(w.kernel_w), u32(w.stride_h), u32(w.stride_w), u32(w.dilation_h), u32(w.dilation_w),
                       channels(), /*input_pixel_stride=*/channels(), /*output_pixel_stride=*/channels(),
                       /*output_min=*/-INFINITY, /*output_max=*/INFINITY, /*flags=*/0, &operator_))) {
      return;
    }
    succeeded("xnn_setup_max_pooling2d_nhwc_f32",
              xnn_setup_max_pooling2d_nhwc_f32(operator_, batch(), static_cast<size_t>(w.h),
                                               static_cast<size_t>(w.w), input_.data(), output_.data(), pool_));
  }

  void set_up_average_pooling(const Window2d& w) {
    if (!succeeded("xnn_create_average_pooling2d_nhwc_f32",
                   xnn_create_average_pooling2d_nhwc_f32(
                       u32(w.pad_top), u32(w.pad_right), u32(w.pad_bottom), u32(w.pad_left), u32(w.kernel_h),
                       u32(w.kernel_w), u32(w.stride_h), u32(w.stride_w), channels(),
                       /*input_pixel_stride=*/channels(), /*output_pixel_stride=*/channels(),
                       /*output_min=*/-INFINITY, /*output_max=*/INFINITY, /*flags=*/0, &operator_))) {
      return;
    }
    succeeded("xnn_setup_average_pooling2d_nhwc_f32",
              xnn_setup_average_pooling2d_nhwc_f32(operator_, batch(), static_cast<size_t>(w.h),
                                                   static_cast<size_t>(w.w), input_.data(), output_.data(),
                                                   pool_));
  }

  // Global average pooling reduces one "width" per image: the spatial axes flattened.
  void set_up_global_average_pooling() {
    const size_t width = static_cast<size_t>(spatial_size(node_.input));
    if (layout_ == XnnpackLayout::kNhwc) {
      if (!succeeded("xnn_create_global_average_pooling_nwc_f32",
                     xnn_create_global_average_pooling_nwc_f32(
                         channels(), /*input_stride=*/channels(), /*output_stride=*/channels(),
                         /*output_min=*/-INFINITY, /*output_max=*/INFINITY, /*flags=*/0, &operator_))) {
        return;
      }
      succeeded("xnn_setup_global_average_pooling_nwc_f32",
                xnn_setup_global_average_pooling_nwc_f32(operator_, batch(), width, input_.data(),
                                                         output_.data(), pool_));
      return;
    }
    if (!succeeded("xnn_create_global_average_pooling_ncw_f32",
                   xnn_create_global_average_pooling_ncw_f32(channels(), /*output_min=*/-INFINITY,
                                                             /*output_max=*/INFINITY, /*flags=*/0,
                                                             &operator_))) {
      return;
    }
    succeeded("xnn_setup_global_average_pooling_ncw_f32",
              xnn_setup_global_average_pooling_ncw_f32(operator_, batch(), width, input_.data(),
                                                       output_.data(), pool_));
  }

  PoolNode node_;
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

std::string xnnpack_unsupported(const PoolNode& node, XnnpackLayout layout) {
  const std::string op = node.op.name;
  if (node.op.reduction == Reduction::kLp) return "XNNPACK has no " + op;
  if (!xnnpack_has(node.op, layout)) return "XNNPACK has no " + op + " in " + xnnpack_layout_name(layout);
  if (node.op.global) return std::string();
  if (node.spatial_rank() > 2) return "XNNPACK has no " + std::to_string(node.spatial_rank()) + "D pooling";
  if (node.op.reduction == Reduction::kAverage && node.dilated()) {
    return "XNNPACK's average pooling has no dilations";
  }
  // Its average pooling divides by the taps inside the input wherever a
  // window meets padding: count_include_pad = 0 only (without pads both agree).
  if (node.op.reduction == Reduction::kAverage && node.count_include_pad && node.has_pads()) {
    return "XNNPACK's average pooling never counts pads (count_include_pad = 1 with pads)";
  }
  return std::string();
}

std::unique_ptr<PoolRunner> make_xnnpack_pool(const PoolNode& node, XnnpackLayout layout, int threads,
                                              const float* input_nchw) {
  return std::make_unique<XnnpackPool>(node, layout, threads, input_nchw);
}

std::unique_ptr<PoolRunner> make_xnnpack_pool(const PoolOpSpec& op, const PoolCase& pool_case,
                                              XnnpackLayout layout, int threads,
                                              const float* input_nchw) {
  return make_xnnpack_pool(pool_node(op, pool_case), layout, threads, input_nchw);
}

}  // namespace onnxpool_bench
