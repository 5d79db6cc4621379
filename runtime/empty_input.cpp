#include "empty_input.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "half_widening.h"

namespace onnxpool::detail {
namespace {

// Writes `value` (the lowest value, 0 or NaN) as element `i` of Y's type.
void store(const TensorView& Y, int64_t i, double value) {
  switch (Y.type) {
    case ElementType::kFloat32: static_cast<float*>(Y.data)[i] = static_cast<float>(value); break;
    case ElementType::kFloat64: static_cast<double*>(Y.data)[i] = value; break;
    case ElementType::kFloat16: static_cast<uint16_t*>(Y.data)[i] = float_to_float16(static_cast<float>(value)); break;
    case ElementType::kBFloat16: static_cast<uint16_t*>(Y.data)[i] = float_to_bfloat16(static_cast<float>(value)); break;
    case ElementType::kInt8:
      static_cast<int8_t*>(Y.data)[i] = value < 0 ? std::numeric_limits<int8_t>::lowest() : int8_t{0};
      break;
    case ElementType::kUInt8: static_cast<uint8_t*>(Y.data)[i] = 0; break;
    default: break;
  }
}

// Per axis, whether output o's window counts a padding tap, the divisor of
// AveragePool with count_include_pad = 1 counting the taps inside
// [-pad_begin, input + pad_end).
std::vector<std::vector<bool>> counted_windows(const WindowGeometry& g) {
  std::vector<std::vector<bool>> counted;
  for (const AxisWindow& a : g.axes) {
    std::vector<bool> axis(static_cast<size_t>(a.output));
    for (int64_t o = 0; o < a.output; ++o) {
      // Taps o*s - pb + j*d for j < k; counted if in [-pb, input + pe). In
      // 128 bits: positions may pass int64 (window_geometry.cpp).
      const __int128 start = static_cast<__int128>(o) * a.stride - a.pad_begin;
      const __int128 lo = -static_cast<__int128>(a.pad_begin), hi = static_cast<__int128>(a.input) + a.pad_end;
      // The first tap at or past lo, and whether it is still a tap and below hi.
      __int128 j = start >= lo ? 0 : (lo - start + a.dilation - 1) / a.dilation;
      axis[static_cast<size_t>(o)] = j < a.kernel && start + j * a.dilation < hi;
    }
    counted.push_back(std::move(axis));
  }
  return counted;
}

}  // namespace

bool windows_without_input(const WindowGeometry& geometry) {
  return geometry.planes() > 0 && geometry.output_plane_size() > 0 && geometry.input_plane_size() == 0;
}

Status fill_windows_without_input(PoolOp op, const PoolAttributes& attributes, const WindowGeometry& geometry,
                                  const TensorView& Y, const TensorView* Indices) {
  if (Y.device != Device::kHost || (Indices != nullptr && Indices->device != Device::kHost)) {
    return Status::unsupported(std::string(op_name(op)) +
                               ": X has an empty spatial axis whose pads give it windows; onnxpool fills such "
                               "outputs on the host only, and Y is a device tensor");
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const int64_t plane = geometry.output_plane_size(), planes = geometry.planes();
  std::vector<double> values(static_cast<size_t>(plane));
  if (op == PoolOp::kMaxPool) {
    values.assign(values.size(), -std::numeric_limits<double>::infinity());
  } else if (op == PoolOp::kLpPool) {
    values.assign(values.size(), 0.0);
  } else if (!attributes.count_include_pad) {
    values.assign(values.size(), nan);
  } else {
    // Row-major over the output plane, the last axis fastest.
    const std::vector<std::vector<bool>> counted = counted_windows(geometry);
    std::vector<int64_t> at(geometry.axes.size(), 0);
    for (int64_t i = 0; i < plane; ++i) {
      bool all = true;
      for (size_t a = 0; a < at.size(); ++a) all = all && counted[a][static_cast<size_t>(at[a])];
      values[static_cast<size_t>(i)] = all ? 0.0 : nan;
      for (size_t a = at.size(); a-- > 0;) {
        if (++at[a] < geometry.axes[a].output) break;
        at[a] = 0;
      }
    }
  }
  for (int64_t p = 0; p < planes; ++p) {
    for (int64_t i = 0; i < plane; ++i) store(Y, p * plane + i, values[static_cast<size_t>(i)]);
  }
  if (Indices != nullptr) {
    int64_t* indices = static_cast<int64_t*>(Indices->data);
    for (int64_t i = 0; i < planes * plane; ++i) indices[i] = -1;
  }
  return Status::ok();
}

}  // namespace onnxpool::detail
