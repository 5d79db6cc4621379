#include "reference_pool.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

namespace onnxpool_bench {

namespace {

// The kernel taps [first, end) of a window starting at `start` that lie in
// [0, extent): the rest are padding, which neither operator reads (pads and
// kernel_shape may dwarf the input).
struct TapRange {
  int64_t first, end;
};

TapRange taps_inside(int64_t start, int64_t kernel, int64_t extent) {
  const int64_t first = std::max<int64_t>(0, -start);
  return {first, std::max(first, std::min(kernel, extent - start))};
}

}  // namespace

PoolResult reference_max_pool(const PoolCase& pc, const float* input_nchw) {
  const int64_t out_h = pc.out_h();
  const int64_t out_w = pc.out_w();
  PoolResult result;
  result.values.resize(static_cast<size_t>(pc.output_elements()));
  result.indices.resize(result.values.size());

  size_t out = 0;
  for (int64_t plane = 0; plane < pc.n * pc.c; ++plane) {
    const int64_t plane_offset = plane * pc.h * pc.w;
    const float* x = input_nchw + plane_offset;
    for (int64_t oy = 0; oy < out_h; ++oy) {
      for (int64_t ox = 0; ox < out_w; ++ox, ++out) {
        float best = -std::numeric_limits<float>::infinity();
        int64_t best_index = -1;
        const TapRange rows = taps_inside(oy * pc.stride_h - pc.pad_top, pc.kernel_h, pc.h);
        const TapRange columns = taps_inside(ox * pc.stride_w - pc.pad_left, pc.kernel_w, pc.w);
        for (int64_t ky = rows.first; ky < rows.end; ++ky) {
          const int64_t y = oy * pc.stride_h - pc.pad_top + ky;
          for (int64_t kx = columns.first; kx < columns.end; ++kx) {
            const int64_t xx = ox * pc.stride_w - pc.pad_left + kx;
            const float v = x[y * pc.w + xx];
            // Strictly greater keeps the first maximum; the test data has no NaN.
            if (best_index < 0 || v > best) {
              best = v;
              best_index = plane_offset + y * pc.w + xx;
            }
          }
        }
        result.values[out] = best;
        result.indices[out] = best_index;
      }
    }
  }
  return result;
}

namespace {

// Average or Lp over every window, in double.
PoolResult reference_sum_pool(Reduction reduction, const PoolCase& pc, const float* input_nchw) {
  const int64_t out_h = pc.out_h();
  const int64_t out_w = pc.out_w();
  PoolResult result;
  result.values.resize(static_cast<size_t>(pc.output_elements()));

  size_t out = 0;
  for (int64_t plane = 0; plane < pc.n * pc.c; ++plane) {
    const float* x = input_nchw + plane * pc.h * pc.w;
    for (int64_t oy = 0; oy < out_h; ++oy) {
      for (int64_t ox = 0; ox < out_w; ++ox, ++out) {
        double sum = 0.0;
        const TapRange rows = taps_inside(oy * pc.stride_h - pc.pad_top, pc.kernel_h, pc.h);
        const TapRange columns = taps_inside(ox * pc.stride_w - pc.pad_left, pc.kernel_w, pc.w);
        for (int64_t ky = rows.first; ky < rows.end; ++ky) {
          const int64_t y = oy * pc.stride_h - pc.pad_top + ky;
          for (int64_t kx = columns.first; kx < columns.end; ++kx) {
            const int64_t xx = ox * pc.stride_w - pc.pad_left + kx;
            const double v = x[y * pc.w + xx];
            sum += reduction == Reduction::kLp ? std::pow(std::fabs(v), kLpP) : v;
          }
        }
        const int64_t inside = (rows.end - rows.first) * (columns.end - columns.first);
        // With ceil_mode 0 every tap lies inside the padded input.
        const int64_t in_padded = pc.kernel_h * pc.kernel_w;
        double value;
        if (reduction == Reduction::kLp) {
          value = std::pow(sum, 1.0 / kLpP);
        } else {
          value = sum / static_cast<double>(kCountIncludePad ? in_padded : inside);
        }
        result.values[out] = static_cast<float>(value);
      }
    }
  }
  return result;
}

}  // namespace

PoolResult reference_pool(const PoolOpSpec& op, const PoolCase& pc, const float* input_nchw) {
  if (op.reduction == Reduction::kMax) return reference_max_pool(pc, input_nchw);
  return reference_sum_pool(op.reduction, pc, input_nchw);
}

}  // namespace onnxpool_bench
