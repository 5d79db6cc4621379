#include "api/call_guard.h"
#include "plan/window_geometry.h"

#include "plan/attribute_checks.h"
#include "plan/tensor_checks.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

namespace onnxpool::detail {
namespace {

constexpr int64_t kMaxExtent = std::numeric_limits<int32_t>::max();

std::string prefix(const PoolAttributes& a) { return std::string(op_name(a.op)) + ": "; }

// ONNX's attributes are int64 but its size formulas are over the integers:
// with strides or dilations near INT64_MAX the intermediate terms
// ((k - 1) * d, (out - 1) * s, in + pads) pass int64, so they are worked out
// in 128 bits and only the results must fit.
using Wide = __int128;

// floor(a / b) and ceil(a / b) for any a, b > 0 (C++ division truncates
// towards zero, which is neither for a negative a).
// Every call divides a few times per axis: in 64 bits when the operands fit
// (a 128-bit division is a library call, 2% of a small call's samples).
bool fits_int64(Wide v) {
  return v >= std::numeric_limits<int64_t>::min() && v <= std::numeric_limits<int64_t>::max();
}
Wide floor_div_signed(Wide a, Wide b) {
  if (fits_int64(a) && fits_int64(b)) {
    const int64_t x = static_cast<int64_t>(a), y = static_cast<int64_t>(b);
    return x / y - (x % y != 0 && x < 0);
  }
  return a / b - (a % b != 0 && a < 0);
}
Wide ceil_div_signed(Wide a, Wide b) {
  if (fits_int64(a) && fits_int64(b)) {
    const int64_t x = static_cast<int64_t>(a), y = static_cast<int64_t>(b);
    return x / y + (x % y != 0 && x > 0);
  }
  return a / b + (a % b != 0 && a > 0);
}

std::string wide_string(Wide v) {
  if (v >= std::numeric_limits<int64_t>::min() && v <= std::numeric_limits<int64_t>::max()) {
    return std::to_string(static_cast<int64_t>(v));
  }
  return v > 0 ? "more than 2^63" : "less than -2^63";
}

Status resolve_axis(const PoolAttributes& a, size_t axis, int64_t in, AxisWindow* w) {
  w->input = in;
  w->kernel = a.kernel_shape[axis];
  w->stride = a.strides[axis];
  w->dilation = a.dilations[axis];
  const size_t rank = a.kernel_shape.size();
  const Wide stride = w->stride;
  const Wide dilated = Wide{w->kernel - 1} * w->dilation + 1;
  Wide pad_begin = 0, pad_end = 0;
  switch (a.auto_pad) {
    case AutoPad::kNotSet:
      pad_begin = a.pads[axis];
      pad_end = a.pads[axis + rank];
      break;
    case AutoPad::kValid:
      break;
    case AutoPad::kSameUpper:
    case AutoPad::kSameLower: {
      const Wide out = ceil_div_signed(in, stride);
      const Wide total = std::max<Wide>((out - 1) * stride + dilated - in, 0);
      const Wide small = total / 2, large = total - small;
      pad_begin = a.auto_pad == AutoPad::kSameUpper ? small : large;
      pad_end = a.auto_pad == AutoPad::kSameUpper ? large : small;
      break;
    }
  }
  const Wide padded = in + pad_begin + pad_end;
  // span < 0: the window is wider than the padded input. ONNX's output-size
  // formula still gives a size for a small overhang: in floor mode 0 while it
  // is at most a stride (an empty output, as onnx.reference gives); in ceil
  // mode 1 while it is under a stride (the one window holds every tap inside
  // X), 0 while under two. Beyond, the size is negative: no shape.
  const Wide span = padded - dilated;
  // SAME_* fixes the output at ceil(in / stride); VALID is zero pads, and
  // ceil_mode applies to it as to explicit pads (ONNX shape inference, onnxruntime).
  const bool same = a.auto_pad == AutoPad::kSameUpper || a.auto_pad == AutoPad::kSameLower;
  Wide output = 0;
  if (a.ceil_mode && !same) {
    output = ceil_div_signed(span, stride) + 1;
    // The last window must start inside the input or the begin padding.
    if (output > 0 && (output - 1) * stride >= in + pad_begin) --output;
  } else {
    output = floor_div_signed(span, stride) + 1;
  }
  if (output < 0) {
    return Status::invalid_argument(
        prefix(a) + "the dilated kernel (kernel_shape " + std::to_string(w->kernel) + ", dilations " +
        std::to_string(w->dilation) + ": " + wide_string(dilated) + " taps wide) is larger than the padded input (" +
        wide_string(padded) + ") on spatial axis " + std::to_string(axis) +
        " of X by more than the stride allows: the output size would be negative");
  }
  if (output > std::numeric_limits<int64_t>::max() || pad_begin > std::numeric_limits<int64_t>::max() ||
      pad_end > std::numeric_limits<int64_t>::max()) {
    return Status::invalid_argument(prefix(a) + "the output size or the pads on spatial axis " + std::to_string(axis) +
                                    " (from 'kernel_shape', 'strides', 'dilations' and 'pads') do not fit int64");
  }
  w->output = static_cast<int64_t>(output);
  w->pad_begin = static_cast<int64_t>(pad_begin);
  w->pad_end = static_cast<int64_t>(pad_end);
  return Status::ok();
}

// Drops the taps that lie in the padding for every window: tap j of output o
// is at o * stride - pad_begin + j * dilation, so taps below the first one
// that reaches position 0 from the last window, and above the last one that
// stays below `input` from the first window, never touch X. What is left is
// the same pooling (padding adds nothing to a max, a sum or an Lp norm, and
// scan order is kept) over a window whose span is bounded by the input and
// the strides, not by kernel_shape or the pads: SAME with a kernel of 65536
// over 8 elements keeps 15 taps.
void trim_taps_outside_input(AxisWindow* w) {
  if (w->output == 0 || w->input == 0) return;
  const Wide last_start = Wide{w->output - 1} * w->stride - w->pad_begin;
  const Wide reaching = last_start >= 0 ? Wide{0} : ceil_div_signed(-last_start, w->dilation);
  const Wide last = std::min<Wide>(w->kernel - 1, floor_div_signed(Wide{w->input} - 1 + w->pad_begin, w->dilation));
  if (reaching > last) {
    // No tap ever touches X (every window is empty): one tap, left of the
    // input in every window, says as much.
    w->pad_begin = static_cast<int64_t>(std::min<Wide>(w->pad_begin, Wide{w->output - 1} * w->stride + 1));
    w->pad_end = 0;
    w->kernel = 1;
    w->dilation = 1;
    return;
  }
  // Leading taps go only while pad_begin stays >= 0: the kernels' windows
  // start in the padding or at the input's start, never inside it.
  const Wide first = std::min<Wide>(reaching, w->pad_begin / w->dilation);
  const Wide dropped_below = first * w->dilation, dropped_above = (Wide{w->kernel - 1} - last) * w->dilation;
  w->pad_begin = static_cast<int64_t>(Wide{w->pad_begin} - dropped_below);
  w->pad_end = static_cast<int64_t>(std::max<Wide>(0, Wide{w->pad_end} - dropped_above));
  w->kernel = static_cast<int64_t>(last - first + 1);
}

// What the kernels can take, after trimming: attributes and positions in
// int32. Not for the first spatial axis, along which a plane whose
// positions or bytes pass that runs in pieces (large_planes.h): there only
// the attributes the kernels take as they are must fit int32. A row buffer
// past 2^31 bytes is the call's to avoid (row_buffer_too_large), not a
// reason to refuse the node: segments or pieces run most such calls.
Status check_kernel_limits(const PoolAttributes& a, size_t axis, AxisWindow* w) {
  // A stride matters only between windows, a dilation only between taps:
  // one window, or one tap, runs with 1 when the attribute passes what the
  // kernels take (a stride of 2^63 - 1 over 8 elements is one window).
  if (w->output <= 1 && w->stride > kMaxExtent) w->stride = 1;
  if (w->kernel == 1 && w->dilation > kMaxExtent) w->dilation = 1;
  if (axis == 0) {
    if (w->kernel > kMaxExtent || w->stride > kMaxExtent || w->dilation > kMaxExtent) {
      return Status::unsupported(prefix(a) + "'kernel_shape', 'strides' or 'dilations' on spatial axis 0 is " +
                                 std::to_string(std::max({w->kernel, w->stride, w->dilation})) +
                                 " (after dropping the taps no window reaches the input with); onnxpool's kernels "
                                 "take them up to 2^31 - 1");
    }
    // A piece holds at least one window: its positions must fit int32, and a
    // 1D kernel buffers them all, 8 bytes each at most.
    const Wide span = Wide{w->kernel - 1} * w->dilation + 1;
    const Wide most = a.kernel_shape.size() == 1 ? kMaxExtent / 8 : kMaxExtent;
    if (span > most) {
      return Status::unsupported(prefix(a) + "one window on spatial axis 0 spans " + wide_string(span) +
                                 " positions (from 'kernel_shape' and 'dilations'); onnxpool's kernels address up to "
                                 "2^31 - 1 positions, and buffer a 1D window's in up to 2^31 bytes");
    }
    return Status::ok();
  }
  const Wide last_start = Wide{std::max<int64_t>(w->output - 1, 0)} * w->stride;
  const Wide last_tap = last_start - w->pad_begin + (Wide{w->kernel - 1} * w->dilation);
  if (w->kernel > kMaxExtent || w->stride > kMaxExtent || w->dilation > kMaxExtent || w->pad_begin > kMaxExtent ||
      w->pad_end > kMaxExtent || last_start > kMaxExtent || last_tap > kMaxExtent) {
    return Status::unsupported(prefix(a) + "the windows on spatial axis " + std::to_string(axis) +
                               " reach position " + wide_string(last_tap) +
                               " (from 'kernel_shape', 'strides', 'dilations' and 'pads'); onnxpool's kernels "
                               "take attributes and address positions up to 2^31 - 1 on every spatial axis but "
                               "the first");
  }
  return Status::ok();
}

}  // namespace

// An empty batch (N or C zero) has no plane to address, and its spatial
// extents may multiply past int64 (valid ONNX: X of shape [0, 1, 2^40, 2^40]
// holds no element; the element-count check stops at its zero), so its
// planes count no element. Otherwise X's element-count check bounds the
// input plane, and the output plane is part of Y, which the caller allocated.
int64_t WindowGeometry::input_plane_size() const {
  if (planes() == 0) return 0;
  int64_t n = 1;
  for (const AxisWindow& w : axes) n *= w.input;
  return n;
}

int64_t WindowGeometry::output_plane_size() const {
  if (planes() == 0) return 0;
  int64_t n = 1;
  for (const AxisWindow& w : axes) n *= w.output;
  return n;
}

Wide row_buffer_positions(const AxisWindow& a) {
  if (a.output <= 0) return 0;
  const Wide last_tap = Wide{a.output - 1} * a.stride - a.pad_begin + Wide{a.kernel - 1} * a.dilation;
  return Wide{a.pad_begin} + std::max<Wide>(a.input, last_tap + 1);
}

Wide row_buffer_entries(const WindowGeometry& g) {
  if (g.axes.empty()) return 0;
  // Saturated at 2^63 - 1: a count, never an allocation size.
  const Wide most = std::numeric_limits<int64_t>::max();
  Wide rows = g.planes();
  for (size_t i = 0; i + 1 < g.axes.size(); ++i) rows = std::min<Wide>(most, rows * g.axes[i].output);
  return std::min<Wide>(most, rows * std::min<Wide>(most, row_buffer_positions(g.axes.back())));
}

bool row_buffer_too_large(const AxisWindow& row_axis) {
  const Wide positions = row_buffer_positions(row_axis);
  return positions > row_axis.input && positions * 8 > std::numeric_limits<int32_t>::max();
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
  // Filled in place (a geometry is 0.8 KB, its lists held inline); on an
  // error the caller drops it.
  WindowGeometry& out = *g;
  out.batch = shape[0];
  out.channels = shape[1];
  out.axes.assign(spatial, AxisWindow{});
  out.onnx_pads.assign(2 * spatial, 0);
  out.output_shape = {shape[0], shape[1]};
  for (size_t i = 0; i < spatial; ++i) {
    const int64_t in = shape[i + 2];
    // Global pools reduce sub-planes and the first axis is split into
    // pieces (large_planes.h); the kernels take the other axes whole.
    if (in > kMaxExtent && !global && i > 0) {
      return Status::unsupported(prefix(a) + "spatial axis " + std::to_string(i) + " of X is " + std::to_string(in) +
                                 " long; onnxpool supports up to 2^31 - 1 on every spatial axis but the first");
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
      out.onnx_pads[i] = out.axes[i].pad_begin;
      out.onnx_pads[i + spatial] = out.axes[i].pad_end;
      // count_include_pad = 1 counts the padding taps in the divisor
      // (average_pool.cpp), so its windows keep them.
      if (!(a.op == PoolOp::kAveragePool && a.count_include_pad)) trim_taps_outside_input(&out.axes[i]);
      s = check_kernel_limits(a, i, &out.axes[i]);
      if (!s) return s;
    }
    out.output_shape.push_back(out.axes[i].output);
  }
  return Status::ok();
}

}  // namespace onnxpool::detail

namespace onnxpool {

Status infer_output_shape(const PoolAttributes& attributes, const std::vector<int64_t>& input_shape,
                          std::vector<int64_t>* output_shape) {
  return detail::guarded_call("infer_output_shape", [&] {
    if (output_shape == nullptr) return Status::invalid_argument("infer_output_shape: output_shape is null");
    detail::WindowGeometry g;
    Status s = detail::compute_window_geometry(attributes, input_shape, &g);
    if (s) *output_shape = g.output_shape.to_vector();
    return s;
  });
}

Status resolve_pads(const PoolAttributes& attributes, const std::vector<int64_t>& input_shape,
                    std::vector<int64_t>* pads) {
  return detail::guarded_call("resolve_pads", [&] {
    if (pads == nullptr) return Status::invalid_argument("resolve_pads: pads is null");
    detail::WindowGeometry g;
    Status s = detail::compute_window_geometry(attributes, input_shape, &g);
    if (!s) return s;
    *pads = g.onnx_pads.to_vector();
    return Status::ok();
  });
}

}  // namespace onnxpool
