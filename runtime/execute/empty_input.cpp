#include "execute/empty_input.h"

#include <cstdint>
#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "execute/element_values.h"

namespace onnxpool::detail {
namespace {

// Whether output o's window on axis `a` counts a padding tap: AveragePool's
// divisor with count_include_pad = 1 counts the taps o*s - pb + j*d (j < k)
// inside [-pb, input + pe). In 128 bits: positions may pass int64
// (window_geometry.cpp).
bool counts_a_tap(const AxisWindow& a, int64_t o) {
  const __int128 start = static_cast<__int128>(o) * a.stride - a.pad_begin;
  const __int128 lo = -static_cast<__int128>(a.pad_begin), hi = static_cast<__int128>(a.input) + a.pad_end;
  // The first tap at or past lo: counted if it is a tap and below hi.
  const __int128 j = start >= lo ? 0 : (lo - start + a.dilation - 1) / a.dilation;
  return j < a.kernel && start + j * a.dilation < hi;
}

}  // namespace

void fill_tapless_windows(PoolOp op, bool count_include_pad, const WindowGeometry& geometry, int64_t first_row,
                          int64_t planes, void* y, ElementType y_type, int64_t* indices) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const bool per_window = op == PoolOp::kAveragePool && count_include_pad;
  const double value = op == PoolOp::kMaxPool  ? -std::numeric_limits<double>::infinity()
                       : op == PoolOp::kLpPool ? 0.0
                       : per_window            ? 0.0
                                               : nan;
  int64_t count = planes;
  for (const AxisWindow& a : geometry.axes) count *= a.output;
  // Y may be as large as the pads make it: no buffer of its size here, the
  // per-window value comes from each axis's position (row-major, the last
  // axis fastest; planes repeat the same windows).
  // A fixed array: a call in pieces fills such rows after earlier pieces
  // wrote Y, where no allocation may be refused (large_planes.h).
  int64_t at[kMaxWindowedRank] = {};
  const size_t rank = std::min<size_t>(geometry.axes.size(), kMaxWindowedRank);
  for (int64_t i = 0; i < count; ++i) {
    bool counted = true;
    if (per_window) {
      for (size_t a = 0; a < rank && counted; ++a) {
        counted = counts_a_tap(geometry.axes[a], at[a] + (a == 0 ? first_row : 0));
      }
      for (size_t a = rank; a-- > 0;) {
        if (++at[a] < geometry.axes[a].output) break;
        at[a] = 0;
      }
    }
    store_element(y, y_type, i, counted ? value : nan);
  }
  if (indices != nullptr) std::fill(indices, indices + count, int64_t{-1});
}

bool windows_without_input(const WindowGeometry& geometry) {
  // Not output_plane_size(): the axes after an empty one are bounded one by
  // one, not as a product, so the plane's size may pass int64.
  bool empty = false, outputs = geometry.planes() > 0;
  for (const AxisWindow& a : geometry.axes) {
    empty = empty || a.input == 0;
    outputs = outputs && a.output > 0;
  }
  return empty && outputs;
}

Status fill_windows_without_input(PoolOp op, bool count_include_pad, const WindowGeometry& geometry,
                                  const TensorView& Y, const TensorView* Indices) {
  if (Y.device != Device::kHost || (Indices != nullptr && Indices->device != Device::kHost)) {
    return Status::unsupported(std::string(op_name(op)) +
                               ": X has an empty spatial axis whose pads give it windows; onnxpool fills such "
                               "outputs on the host only, and Y is a device tensor");
  }
  int64_t count = geometry.planes();
  for (const AxisWindow& a : geometry.axes) {
    if (__builtin_mul_overflow(count, a.output, &count)) {
      return Status::unsupported(std::string(op_name(op)) +
                                 ": Y has more elements than fit in a 64-bit size (an empty spatial axis whose pads "
                                 "give it windows)");
    }
  }
  fill_tapless_windows(op, count_include_pad, geometry, 0,
                       geometry.planes(), Y.data, Y.type, Indices ? static_cast<int64_t*>(Indices->data) : nullptr);
  return Status::ok();
}

}  // namespace onnxpool::detail
