#include "reference_pool.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

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

namespace onnxpool_bench {
namespace {

constexpr size_t kLoopRank = 3;

// The node's windows with unit axes put in front, so every rank loops as 3D.
struct Windows3d {
  int64_t in[kLoopRank], out[kLoopRank], kernel[kLoopRank], stride[kLoopRank], dilation[kLoopRank],
      pad_begin[kLoopRank], pad_end[kLoopRank];
};

Windows3d as_3d(const PoolNode& node) {
  Windows3d w;
  const size_t lead = kLoopRank - node.spatial_rank();
  for (size_t axis = 0; axis < kLoopRank; ++axis) {
    const bool unit = axis < lead;
    const size_t a = axis - lead;
    w.in[axis] = unit ? 1 : node.input[a + 2];
    w.out[axis] = unit ? 1 : node.output[a + 2];
    w.kernel[axis] = unit ? 1 : node.kernel[a];
    w.stride[axis] = unit ? 1 : node.strides[a];
    w.dilation[axis] = unit ? 1 : node.dilations[a];
    w.pad_begin[axis] = unit ? 0 : node.pad_begin[a];
    w.pad_end[axis] = unit ? 0 : node.pad_end[a];
  }
  return w;
}

// One window's taps along one axis: the input coordinates of those inside the
// input, and how many lie inside [-pad_begin, in + pad_end), which is what
// count_include_pad = 1 divides by (ceil_mode's extension is not counted).
struct AxisTaps {
  std::vector<int64_t> inside;
  int64_t in_padded_input = 0;
};

AxisTaps axis_taps(const Windows3d& w, size_t axis, int64_t out_position) {
  AxisTaps taps;
  for (int64_t k = 0; k < w.kernel[axis]; ++k) {
    const int64_t x = out_position * w.stride[axis] - w.pad_begin[axis] + k * w.dilation[axis];
    if (x >= 0 && x < w.in[axis]) taps.inside.push_back(x);
    if (x >= -w.pad_begin[axis] && x < w.in[axis] + w.pad_end[axis]) ++taps.in_padded_input;
  }
  return taps;
}

double pth_root(double sum, int64_t p) { return p == 2 ? std::sqrt(sum) : std::pow(sum, 1.0 / p); }

// What the operator makes of one window's taps (global: the whole plane).
template <typename ForEachTap>
double reduce_window(const PoolNode& node, int64_t inside_count, int64_t padded_count,
                     ForEachTap for_each_tap) {
  double result = node.op.reduction == Reduction::kMax ? -std::numeric_limits<double>::infinity() : 0.0;
  for_each_tap([&](float v) {
    switch (node.op.reduction) {
      case Reduction::kMax: result = std::max(result, static_cast<double>(v)); break;
      case Reduction::kAverage: result += v; break;
      case Reduction::kLp: result += std::pow(std::fabs(static_cast<double>(v)), node.p); break;
    }
  });
  if (node.op.reduction == Reduction::kLp) return pth_root(result, node.p);
  if (node.op.reduction == Reduction::kAverage) {
    // 0/0 (a window that only steps over padding) is NaN, as ONNX's mean of nothing.
    return result / static_cast<double>(node.count_include_pad ? padded_count : inside_count);
  }
  return result;
}

std::vector<float> reference_global_node(const PoolNode& node, const float* x) {
  const int64_t planes = node.input[0] * node.input[1];
  const int64_t plane_size = node.input_elements() / std::max<int64_t>(planes, 1);
  std::vector<float> values(static_cast<size_t>(planes));
  for (int64_t plane = 0; plane < planes; ++plane) {
    const float* p = x + plane * plane_size;
    values[plane] = static_cast<float>(reduce_window(node, plane_size, plane_size, [&](auto visit) {
      for (int64_t i = 0; i < plane_size; ++i) visit(p[i]);
    }));
  }
  return values;
}

}  // namespace

std::vector<float> reference_pool_node(const PoolNode& node, const float* input_nchw) {
  if (node.op.global) return reference_global_node(node, input_nchw);
  const Windows3d w = as_3d(node);
  const int64_t planes = node.input[0] * node.input[1];
  const int64_t plane_size = w.in[0] * w.in[1] * w.in[2];
  std::vector<float> values(static_cast<size_t>(node.output_elements()));
  // Every plane has the same windows: each axis's taps are found once.
  std::vector<AxisTaps> taps[kLoopRank];
  for (size_t axis = 0; axis < kLoopRank; ++axis) {
    for (int64_t o = 0; o < w.out[axis]; ++o) taps[axis].push_back(axis_taps(w, axis, o));
  }
  size_t out = 0;
  for (int64_t plane = 0; plane < planes; ++plane) {
    const float* x = input_nchw + plane * plane_size;
    for (const AxisTaps& depth : taps[0]) {
      for (const AxisTaps& rows : taps[1]) {
        for (const AxisTaps& columns : taps[2]) {
          const int64_t inside = static_cast<int64_t>(depth.inside.size() * rows.inside.size() * columns.inside.size());
          const int64_t padded = depth.in_padded_input * rows.in_padded_input * columns.in_padded_input;
          values[out] = static_cast<float>(reduce_window(node, inside, padded, [&](auto visit) {
            for (int64_t d : depth.inside)
              for (int64_t h : rows.inside)
                for (int64_t c : columns.inside) visit(x[(d * w.in[1] + h) * w.in[2] + c]);
          }));
          ++out;
        }
      }
    }
  }
  return values;
}

}  // namespace onnxpool_bench
