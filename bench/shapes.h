// The pooling geometries the benchmarks measure, taken from real networks
// (design.md section 6). A case is geometry only: the operator is part of the
// benchmark name, so one case can be measured as MaxPool and AveragePool alike.
#pragma once

#include <cstdint>

namespace onnxpool_bench {

// A 2-D pooling window over an NCHW float32 tensor; dilation 1, ceil_mode 0.
struct PoolCase {
  const char* id;  // the <case> token of benchmark names, e.g. "S1"; unique across all tables
  int64_t n, c, h, w;
  int64_t kernel_h, kernel_w;
  int64_t stride_h, stride_w;
  int64_t pad_top, pad_left, pad_bottom, pad_right;

  constexpr int64_t out_h() const { return (h + pad_top + pad_bottom - kernel_h) / stride_h + 1; }
  constexpr int64_t out_w() const { return (w + pad_left + pad_right - kernel_w) / stride_w + 1; }
  constexpr int64_t input_elements() const { return n * c * h * w; }
  constexpr int64_t output_elements() const { return n * c * out_h() * out_w(); }
};

// Square kernel, equal strides, the same pad on every side: all of S1-S4.
constexpr PoolCase square_window(const char* id, int64_t n, int64_t c, int64_t h, int64_t w,
                                 int64_t kernel, int64_t stride, int64_t pad) {
  return PoolCase{id, n, c, h, w, kernel, kernel, stride, stride, pad, pad, pad, pad};
}

inline constexpr PoolCase kMaxPoolCases[] = {
    square_window("S1", 1, 64, 112, 112, 3, 2, 1),   // ResNet stem
    square_window("S2", 32, 64, 112, 112, 3, 2, 1),  // ResNet stem, batch 32: DRAM-bound
    square_window("S3", 1, 128, 56, 56, 2, 2, 0),    // VGG
    square_window("S4", 1, 192, 28, 28, 3, 1, 1),    // Inception
};

}  // namespace onnxpool_bench
