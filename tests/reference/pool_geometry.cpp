#include "reference/pool_geometry.h"

#include <algorithm>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace onnxpool_test {
namespace {

// ONNX's integers are int64, but its formulas are over the integers: the
// geometry is worked out in 128 bits, so attributes near INT64_MAX give the
// true answer (or no shape, when a pad or an output size leaves int64)
// instead of overflowing.
using Wide = __int128;

Wide ceil_div(Wide numerator, Wide denominator) { return (numerator + denominator - 1) / denominator; }

int64_t narrow(Wide value, const char* what) {
  if (value > std::numeric_limits<int64_t>::max() || value < std::numeric_limits<int64_t>::min()) {
    throw std::invalid_argument(std::string("reference: ") + what + " does not fit int64");
  }
  return static_cast<int64_t>(value);
}

std::vector<int64_t> or_ones(const std::vector<int64_t>& values, size_t rank, const char* name) {
  if (values.empty()) return std::vector<int64_t>(rank, 1);
  if (values.size() != rank) throw std::invalid_argument(std::string("reference: wrong length of ") + name);
  for (int64_t v : values) {
    if (v < 1) throw std::invalid_argument(std::string("reference: non-positive ") + name);
  }
  return values;
}

void append_list(std::ostringstream& out, const char* name, const std::vector<int64_t>& values) {
  if (values.empty()) return;
  out << ' ' << name << '=';
  for (size_t i = 0; i < values.size(); ++i) out << (i ? "," : "") << values[i];
}

}  // namespace

std::string PoolSpec::to_string() const {
  std::ostringstream out;
  append_list(out, "kernel_shape", kernel_shape);
  append_list(out, "strides", strides);
  append_list(out, "dilations", dilations);
  append_list(out, "pads", pads);
  out << " auto_pad=" << auto_pad << " ceil_mode=" << ceil_mode << " storage_order=" << storage_order
      << " count_include_pad=" << count_include_pad << " p=" << p;
  return out.str();
}

int64_t WindowGeometry::dilated_kernel(size_t axis) const {
  return (kernel[axis] - 1) * dilations[axis] + 1;
}

std::vector<int64_t> WindowGeometry::onnx_pads() const {
  std::vector<int64_t> pads = pad_begin;
  pads.insert(pads.end(), pad_end.begin(), pad_end.end());
  return pads;
}

WindowGeometry window_geometry(const PoolSpec& spec, const std::vector<int64_t>& input_spatial) {
  const size_t rank = input_spatial.size();
  if (spec.kernel_shape.size() != rank) throw std::invalid_argument("reference: kernel_shape rank");
  WindowGeometry g;
  g.input = input_spatial;
  g.kernel = or_ones(spec.kernel_shape, rank, "kernel_shape");
  g.strides = or_ones(spec.strides, rank, "strides");
  g.dilations = or_ones(spec.dilations, rank, "dilations");
  g.pad_begin.assign(rank, 0);
  g.pad_end.assign(rank, 0);
  g.output.assign(rank, 0);

  const bool same_upper = spec.auto_pad == "SAME_UPPER";
  const bool same_lower = spec.auto_pad == "SAME_LOWER";
  if (spec.auto_pad == "NOTSET") {
    if (!spec.pads.empty()) {
      if (spec.pads.size() != 2 * rank) throw std::invalid_argument("reference: pads length");
      for (size_t axis = 0; axis < rank; ++axis) {
        g.pad_begin[axis] = spec.pads[axis];
        g.pad_end[axis] = spec.pads[rank + axis];
      }
    }
  } else if (!same_upper && !same_lower && spec.auto_pad != "VALID") {
    throw std::invalid_argument("reference: unknown auto_pad " + spec.auto_pad);
  }

  for (size_t axis = 0; axis < rank; ++axis) {
    const Wide in = g.input[axis];
    const Wide stride = g.strides[axis];
    const Wide window = Wide{g.kernel[axis] - 1} * g.dilations[axis] + 1;
    // An empty axis is valid: the formula gives its windows, all in the padding.
    if (same_upper || same_lower) {
      // The total pad comes from the DILATED kernel; the odd unit goes to the
      // end for SAME_UPPER and to the start for SAME_LOWER.
      const Wide total = std::max<Wide>((ceil_div(in, stride) - 1) * stride + window - in, 0);
      const Wide smaller_half = total / 2;
      g.pad_begin[axis] = narrow(same_upper ? smaller_half : total - smaller_half, "a SAME pad");
      g.pad_end[axis] = narrow(total - g.pad_begin[axis], "a SAME pad");
    }
    if (g.pad_begin[axis] < 0 || g.pad_end[axis] < 0) throw std::invalid_argument("reference: negative pads");

    // Negative when the window is wider than the padded input: ONNX's formula,
    // with floor and ceil of the real quotient, still gives 0 or 1 outputs for
    // an overhang within a stride or two.
    const Wide span = in + g.pad_begin[axis] + g.pad_end[axis] - window;
    const Wide quotient = span / stride, rest = span % stride;
    Wide out = (spec.ceil_mode ? quotient + (rest > 0) : quotient - (rest < 0)) + 1;
    // A ceil-mode window that would start inside the end padding is dropped.
    if (spec.ceil_mode && out > 0 && (out - 1) * stride >= in + g.pad_begin[axis]) --out;
    if (out < 0) throw std::invalid_argument("reference: dilated kernel wider than the padded input by more than a stride");
    g.output[axis] = narrow(out, "the output size");
  }
  return g;
}

}  // namespace onnxpool_test
