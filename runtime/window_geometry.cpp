#include "window_geometry.h"

#include "attribute_checks.h"
#include "tensor_checks.h"

#include <cstdint>
#include <limits>
#include <string>

namespace onnxpool::detail {
namespace {

constexpr int64_t kMaxExtent = std::numeric_limits<int32_t>::max();

std::string prefix(const PoolAttributes& a) { return std::string(op_name(a.op)) + ": "; }

// ceil(a / b) for a >= 0, b > 0.
int64_t ceil_div(int64_t a, int64_t b) { return a / b + (a % b != 0); }

// floor(a / b) and ceil(a / b) for any a, b > 0 (C++ division truncates
// towards zero, which is neither for a negative a).
int64_t floor_div_signed(int64_t a, int64_t b) { return a / b - (a % b != 0 && a < 0); }
int64_t ceil_div_signed(int64_t a, int64_t b) { return a / b + (a % b != 0 && a > 0); }

Status resolve_axis(const PoolAttributes& a, size_t axis, int64_t in, AxisWindow* w) {
  w->input = in;
  w->kernel = a.kernel_shape[axis];
  w->stride = a.strides[axis];
  w->dilation = a.dilations[axis];
  const size_t rank = a.kernel_shape.size();
  if (w->kernel > kMaxExtent || w->stride > kMaxExtent || w->dilation > kMaxExtent) {
    return Status::invalid_argument(prefix(a) + "attribute 'kernel_shape', 'strides' or 'dilations' on axis " +
                                    std::to_string(axis) + " exceeds 2^31 - 1");
  }
  const int64_t dilated = (w->kernel - 1) * w->dilation + 1;  // < 2^62: no overflow
  switch (a.auto_pad) {
    case AutoPad::kNotSet:
      w->pad_begin = a.pads[axis];
      w->pad_end = a.pads[axis + rank];
      break;
    case AutoPad::kValid:
      break;
    case AutoPad::kSameUpper:
    case AutoPad::kSameLower: {
      const int64_t out = ceil_div(in, w->stride);
      const int64_t total = std::max<int64_t>((out - 1) * w->stride + dilated - in, 0);
      const int64_t small = total / 2, large = total - small;
      w->pad_begin = a.auto_pad == AutoPad::kSameUpper ? small : large;
      w->pad_end = a.auto_pad == AutoPad::kSameUpper ? large : small;
      break;
    }
  }
  if (w->pad_begin > kMaxExtent || w->pad_end > kMaxExtent) {
    return Status::invalid_argument(prefix(a) + "attribute 'pads' on axis " + std::to_string(axis) +
                                    " exceeds 2^31 - 1");
  }
  const int64_t padded = in + w->pad_begin + w->pad_end;
  // span < 0: the window is wider than the padded input. ONNX's output-size
  // formula still gives a size for a small overhang: in floor mode 0 while it
  // is at most a stride (an empty output, as onnx.reference gives); in ceil
  // mode 1 while it is under a stride (the one window holds every tap inside
  // X), 0 while under two. Beyond, the size is negative: no shape.
  const int64_t span = padded - dilated;
  // SAME_* fixes the output at ceil(in / stride); VALID is zero pads, and
  // ceil_mode applies to it as to explicit pads (ONNX shape inference, onnxruntime).
  const bool same = a.auto_pad == AutoPad::kSameUpper || a.auto_pad == AutoPad::kSameLower;
  if (a.ceil_mode && !same) {
    w->output = ceil_div_signed(span, w->stride) + 1;
    // The last window must start inside the input or the begin padding.
    if (w->output > 0 && (w->output - 1) * w->stride >= in + w->pad_begin) --w->output;
  } else {
    w->output = floor_div_signed(span, w->stride) + 1;
  }
  if (w->output < 0) {
    return Status::invalid_argument(
        prefix(a) + "the dilated kernel (kernel_shape " + std::to_string(w->kernel) + ", dilations " +
        std::to_string(w->dilation) + ": " + std::to_string(dilated) + " taps wide) is larger than the padded input (" +
        std::to_string(padded) + ") on spatial axis " + std::to_string(axis) +
        " of X by more than the stride allows: the output size would be negative");
  }
  // The kernels compute tap positions (o * stride - pad_begin + r * dilation)
  // in int32. (output - 1) * stride <= span + stride cannot overflow int64.
  const int64_t last_start = (w->output - 1) * w->stride;
  const int64_t last_tap = last_start - w->pad_begin + dilated - 1;
  if (last_start > kMaxExtent || dilated - 1 > kMaxExtent || last_tap > kMaxExtent) {
    return Status::unsupported(prefix(a) + "the last window on spatial axis " + std::to_string(axis) +
                               " reaches position " + std::to_string(last_tap) +
                               " (from 'kernel_shape', 'strides', 'dilations' and 'pads'); onnxpool's kernels "
                               "address positions up to 2^31 - 1");
  }
  return Status::ok();
}

}  // namespace

int64_t WindowGeometry::input_plane_size() const {
  int64_t n = 1;
  for (const AxisWindow& w : axes) n *= w.input;
  return n;
}

int64_t WindowGeometry::output_plane_size() const {
  int64_t n = 1;
  for (const AxisWindow& w : axes) n *= w.output;
  return n;
}

Status compute_window_geometry(const PoolAttributes& a, const std::vector<int64_t>& shape,
                               WindowGeometry* g) {
  Status valid = validate_attributes(a);
  if (!valid) return valid;
  const bool global = is_global_op(a.op);
  if (shape.size() < 3) {
    return Status::invalid_argument(prefix(a) + "input X must have rank >= 3 ([N, C, spatial...]), got shape " +
                                    shape_string(shape));
  }
  for (int64_t d : shape) {
    if (d < 0) return Status::invalid_argument(prefix(a) + "input X has a negative dimension: " + shape_string(shape));
  }
  const size_t spatial = shape.size() - 2;
  if (!global && spatial != a.kernel_shape.size()) {
    return Status::invalid_argument(prefix(a) + "attribute 'kernel_shape' has " +
                                    std::to_string(a.kernel_shape.size()) + " axes but X " +
                                    shape_string(shape) + " has " + std::to_string(spatial) + " spatial axes");
  }
  // Element counts must fit int64 with room for byte sizes (x8).
  int64_t count = 1;
  for (int64_t d : shape) {
    if (d != 0 && count > (std::numeric_limits<int64_t>::max() / 8) / d) {
      return Status::invalid_argument(prefix(a) + "input X " + shape_string(shape) +
                                      " has more elements than fit in a 64-bit size");
    }
    count *= d;
  }
  WindowGeometry out;
  out.batch = shape[0];
  out.channels = shape[1];
  out.axes.resize(spatial);
  out.output_shape = {shape[0], shape[1]};
  for (size_t i = 0; i < spatial; ++i) {
    const int64_t in = shape[i + 2];
    if (in > kMaxExtent) {
      return Status::unsupported(prefix(a) + "spatial axis " + std::to_string(i) + " of X is " + std::to_string(in) +
                                 " long; onnxpool supports up to 2^31 - 1");
    }
    if (global) {
      if (in == 0) {
        return Status::invalid_argument(prefix(a) + "X has an empty spatial axis " + std::to_string(i) +
                                        ": the global pool of nothing is undefined");
      }
      out.axes[i] = AxisWindow{in, 1, in, 1, 1, 0, 0};
    } else {
      Status s = resolve_axis(a, i, in, &out.axes[i]);
      if (!s) return s;
    }
    out.output_shape.push_back(out.axes[i].output);
  }
  *g = std::move(out);
  return Status::ok();
}

}  // namespace onnxpool::detail

namespace onnxpool {

Status infer_output_shape(const PoolAttributes& attributes, const std::vector<int64_t>& input_shape,
                          std::vector<int64_t>* output_shape) {
  if (output_shape == nullptr) return Status::invalid_argument("infer_output_shape: output_shape is null");
  detail::WindowGeometry g;
  Status s = detail::compute_window_geometry(attributes, input_shape, &g);
  if (s) *output_shape = g.output_shape;
  return s;
}

Status resolve_pads(const PoolAttributes& attributes, const std::vector<int64_t>& input_shape,
                    std::vector<int64_t>* pads) {
  if (pads == nullptr) return Status::invalid_argument("resolve_pads: pads is null");
  detail::WindowGeometry g;
  Status s = detail::compute_window_geometry(attributes, input_shape, &g);
  if (!s) return s;
  pads->assign(2 * g.axes.size(), 0);
  for (size_t i = 0; i < g.axes.size(); ++i) {
    (*pads)[i] = g.axes[i].pad_begin;
    (*pads)[i + g.axes.size()] = g.axes[i].pad_end;
  }
  return Status::ok();
}

}  // namespace onnxpool
