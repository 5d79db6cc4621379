// The operators and pooling geometries the benchmarks measure, taken from real
// networks (bench/README.md). A case is geometry only: the operator is part
// of the benchmark name, so one case (S1, S4) is measured as MaxPool and as
// AveragePool alike, on the same input.
#pragma once

#include <cstdint>

namespace onnxpool_bench {

// A 2-D pooling window over an NCHW float32 tensor; dilation 1, ceil_mode 0.
// A global pool is the window covering the whole plane (kernel = H x W,
// stride 1, no pads), so one output per channel.
struct PoolCase {
  const char* id;  // the <case> token of benchmark names, e.g. "S1"; one geometry per id
  int64_t n, c, h, w;
  int64_t kernel_h, kernel_w;
  int64_t stride_h, stride_w;
  int64_t pad_top, pad_left, pad_bottom, pad_right;

  constexpr int64_t out_h() const { return (h + pad_top + pad_bottom - kernel_h) / stride_h + 1; }
  constexpr int64_t out_w() const { return (w + pad_left + pad_right - kernel_w) / stride_w + 1; }
  constexpr int64_t input_elements() const { return n * c * h * w; }
  constexpr int64_t output_elements() const { return n * c * out_h() * out_w(); }
  constexpr bool has_pads() const {
    return pad_top != 0 || pad_left != 0 || pad_bottom != 0 || pad_right != 0;
  }
};

// Square kernel, equal strides, the same pad on every side: S1-S4 and S6.
constexpr PoolCase square_window(const char* id, int64_t n, int64_t c, int64_t h, int64_t w,
                                 int64_t kernel, int64_t stride, int64_t pad) {
  return PoolCase{id, n, c, h, w, kernel, kernel, stride, stride, pad, pad, pad, pad};
}

// The window of a global pool over an N x C x H x W input: S5 and S7.
constexpr PoolCase global_window(const char* id, int64_t n, int64_t c, int64_t h, int64_t w) {
  return PoolCase{id, n, c, h, w, h, w, 1, 1, 0, 0, 0, 0};
}

// What an ONNX pooling operator computes over each window.
enum class Reduction { kMax, kAverage, kLp };

// One ONNX operator with the attributes the benchmarks fix. kernel_shape,
// strides and pads come from the PoolCase (global operators take none).
struct PoolOpSpec {
  const char* name;  // ONNX operator name: the <op> token of benchmark names
  Reduction reduction;
  bool global;
};

// AveragePool runs with count_include_pad = 0, ONNX's default: pads are not
// counted, so an edge window of S1/S4 divides by its taps inside the input.
// Every peer is set up to match (oneDNN pooling_avg_exclude_padding; XNNPACK's
// average pooling excludes padding by design).
inline constexpr bool kCountIncludePad = false;
// p of LpPool (S6) and GlobalLpPool (S7).
inline constexpr int kLpP = 2;

inline constexpr PoolOpSpec kMaxPool{"MaxPool", Reduction::kMax, false};
inline constexpr PoolOpSpec kAveragePool{"AveragePool", Reduction::kAverage, false};
inline constexpr PoolOpSpec kLpPool{"LpPool", Reduction::kLp, false};
inline constexpr PoolOpSpec kGlobalMaxPool{"GlobalMaxPool", Reduction::kMax, true};
inline constexpr PoolOpSpec kGlobalAveragePool{"GlobalAveragePool", Reduction::kAverage, true};
inline constexpr PoolOpSpec kGlobalLpPool{"GlobalLpPool", Reduction::kLp, true};

inline constexpr PoolCase kS1 = square_window("S1", 1, 64, 112, 112, 3, 2, 1);   // ResNet stem
inline constexpr PoolCase kS2 = square_window("S2", 32, 64, 112, 112, 3, 2, 1);  // same, batch 32: DRAM-bound
inline constexpr PoolCase kS3 = square_window("S3", 1, 128, 56, 56, 2, 2, 0);    // VGG
inline constexpr PoolCase kS4 = square_window("S4", 1, 192, 28, 28, 3, 1, 1);    // Inception
inline constexpr PoolCase kS5 = global_window("S5", 1, 2048, 7, 7);              // ResNet-50 head
inline constexpr PoolCase kS6 = square_window("S6", 1, 64, 56, 56, 3, 2, 1);     // LpPool p=2
inline constexpr PoolCase kS7 = global_window("S7", 1, 256, 14, 14);             // GlobalLpPool p=2

inline constexpr PoolCase kMaxPoolCases[] = {kS1, kS2, kS3, kS4};
inline constexpr PoolCase kAveragePoolCases[] = {kS1, kS4};
inline constexpr PoolCase kLpPoolCases[] = {kS6};
inline constexpr PoolCase kGlobalMaxPoolCases[] = {kS5};
inline constexpr PoolCase kGlobalAveragePoolCases[] = {kS5};
inline constexpr PoolCase kGlobalLpPoolCases[] = {kS7};

// Calls visit(op, case) for every case of the suite, in the order of the run
// and of the report (every benchmark program registers them this way).
template <typename Visit>
void for_each_suite_case(Visit visit) {
  for (const PoolCase& c : kMaxPoolCases) visit(kMaxPool, c);
  for (const PoolCase& c : kAveragePoolCases) visit(kAveragePool, c);
  for (const PoolCase& c : kLpPoolCases) visit(kLpPool, c);
  for (const PoolCase& c : kGlobalMaxPoolCases) visit(kGlobalMaxPool, c);
  for (const PoolCase& c : kGlobalAveragePoolCases) visit(kGlobalAveragePool, c);
  for (const PoolCase& c : kGlobalLpPoolCases) visit(kGlobalLpPool, c);
}

// The smallest call: onnxpool MaxPool 1x1 on a 1x1x1x1 tensor. Its time is
// what any call costs (validation, dispatch, buffer setup) whatever the size;
// the Python peers report their own per-call overhead under the same op.
inline constexpr const char* kCallOverheadOp = "CallOverhead";
inline constexpr PoolCase kT0 = square_window("T0", 1, 1, 1, 1, 1, 1, 0);

}  // namespace onnxpool_bench
