// Tensors past 2^31 bytes and 2^31 elements run (runtime/execute/large_planes.h),
// each checked against a plain per-window reference on every output next to
// a cut between pieces and on sampled outputs elsewhere:
// - a float32 3D volume of one 4.06 GiB plane: MaxPool with Indices and
//   AveragePool, 3x3x3 windows at stride 2, overlapping across the cuts;
// - int8 MaxPool with Indices over two planes of 2^31 + 2^19 elements, so
//   positions pass 2^31 and 2^32 (int8's many ties test which tap wins);
// - int8 MaxPool along one 1D axis past 2^31 - 1 elements;
// - the global pools over one float16 plane past 2^31 elements and one
//   float32 plane past 2^31 bytes, against double sums of every element,
//   and a float32 mean over 2^29 - 2^16 elements that used to stagnate;
// - int8 MaxPool over 2^28 outputs of padding along one axis.
// About 6.5 GiB at most, one test at a time (ctest label large_tensors,
// RESOURCE_LOCK); not under qemu or the sanitizers (CMakePresets.json).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "execute/large_planes.h"
#include "execute/window_segments.h"
#include "onnxpool/pooling.h"
#include "reference/float_formats.h"
#include "reference/host_tensor.h"
#include "support/onnx_attributes.h"

namespace onnxpool_test {
namespace {

using onnxpool::ElementType;
using onnxpool::PoolOp;
using onnxpool::detail::calls_run_in_pieces;
using onnxpool::detail::calls_run_in_segments;
using onnxpool::detail::last_piece_starts;

uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// f(begin, end) over [0, n) on every core.
void in_parallel(int64_t n, const std::function<void(int64_t, int64_t)>& f) {
  const int64_t threads = std::max<int64_t>(1, std::thread::hardware_concurrency());
  std::vector<std::thread> workers;
  for (int64_t t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] { f(n * t / threads, n * (t + 1) / threads); });
  }
  for (std::thread& w : workers) w.join();
}

template <typename T>
std::unique_ptr<T[]> uninitialized(int64_t n) {
  return std::unique_ptr<T[]>(new T[static_cast<size_t>(n)]);
}

// One plane's windows: kernel, stride and begin pad per spatial axis
// (dilation 1), with ONNX's floor-mode output extents.
struct Windows {
  std::vector<int64_t> input, kernel, stride, pad;
  std::vector<int64_t> output() const {
    std::vector<int64_t> out;
    for (size_t i = 0; i < input.size(); ++i) out.push_back((input[i] + 2 * pad[i] - kernel[i]) / stride[i] + 1);
    return out;
  }
};

// Calls tap(position in the plane) for each tap of output `o` (row-major
// within the plane) inside the input, in row-major window order.
template <typename Tap>
void for_each_tap(const Windows& w, const std::vector<int64_t>& out, int64_t o, Tap tap) {
  const size_t rank = w.input.size();
  std::vector<int64_t> start(rank), at(rank, 0);
  for (size_t i = rank; i-- > 0;) {
    start[i] = (o % out[i]) * w.stride[i] - w.pad[i];
    o /= out[i];
  }
  while (true) {
    int64_t position = 0;
    bool inside = true;
    for (size_t i = 0; i < rank; ++i) {
      const int64_t p = start[i] + at[i];
      inside = inside && p >= 0 && p < w.input[i];
      position = position * w.input[i] + p;
    }
    if (inside) tap(position);
    size_t i = rank;
    while (i-- > 0) {
      if (++at[i] < w.kernel[i]) break;
      at[i] = 0;
    }
    if (i == static_cast<size_t>(-1)) return;
  }
}

// Every output of the rows next to each cut (the last row before it and the
// first after), and `samples` more anywhere, as (plane, output) pairs.
std::vector<std::pair<int64_t, int64_t>> outputs_to_check(const std::vector<int64_t>& starts, int64_t planes,
                                                          const std::vector<int64_t>& out, int samples) {
  const int64_t row = element_count(out) / out[0];
  std::vector<std::pair<int64_t, int64_t>> picked;
  for (int64_t plane = 0; plane < planes; ++plane) {
    for (int64_t start : starts) {
      for (int64_t r : {start - 1, start}) {
        if (r < 0 || r >= out[0]) continue;
        for (int64_t i = 0; i < row; ++i) picked.push_back({plane, r * row + i});
      }
    }
  }
  for (int s = 0; s < samples; ++s) {
    const uint64_t h = mix(0xC0FFEEull + static_cast<uint64_t>(s));
    picked.push_back({static_cast<int64_t>(h % static_cast<uint64_t>(planes)),
                      static_cast<int64_t>((h >> 20) % static_cast<uint64_t>(element_count(out)))});
  }
  return picked;
}

onnxpool::PoolAttributes attributes_for(PoolOp op, const Windows& w) {
  PoolSpec spec;
  spec.kernel_shape = w.kernel;
  spec.strides = w.stride;
  spec.pads = w.pad;
  spec.pads.insert(spec.pads.end(), w.pad.begin(), w.pad.end());
  onnxpool::PoolAttributes a;
  EXPECT_TRUE(onnxpool::PoolAttributes::parse(op, onnx_attributes(op, spec), &a));
  return a;
}

// MaxPool with Indices over `planes` planes of X, checked: values and
// Indices exactly (the first largest tap in row-major window order).
template <typename T>
void check_max_pool(const T* x, ElementType type, int64_t planes, const Windows& w, bool with_indices) {
  const std::vector<int64_t> out = w.output();
  const int64_t in_plane = element_count(w.input), out_plane = element_count(out);
  std::vector<int64_t> x_shape = {1, planes}, y_shape = {1, planes};
  x_shape.insert(x_shape.end(), w.input.begin(), w.input.end());
  y_shape.insert(y_shape.end(), out.begin(), out.end());
  auto y = uninitialized<T>(planes * out_plane);
  std::unique_ptr<int64_t[]> indices = with_indices ? uninitialized<int64_t>(planes * out_plane) : nullptr;
  const onnxpool::TensorView X(static_cast<const void*>(x), type, x_shape);
  const onnxpool::TensorView Y(y.get(), type, y_shape);
  const onnxpool::TensorView I(indices.get(), ElementType::kInt64, y_shape);
  const int64_t before = calls_run_in_pieces();
  const onnxpool::Status s =
      onnxpool::max_pool(attributes_for(PoolOp::kMaxPool, w), X, Y, with_indices ? &I : nullptr);
  ASSERT_TRUE(s) << s.message();
  ASSERT_GT(calls_run_in_pieces(), before);
  const std::vector<int64_t> starts = last_piece_starts();
  ASSERT_GE(starts.size(), 2u) << "a plane past the buffer limit in one piece";
  int mismatches = 0;
  for (const auto& [plane, o] : outputs_to_check(starts, planes, out, 20000)) {
    const T* xp = x + plane * in_plane;
    int64_t best = -1;
    for_each_tap(w, out, o, [&](int64_t p) {
      if (best < 0 || xp[p] > xp[best]) best = p;
    });
    const int64_t at = plane * out_plane + o;
    const bool value_ok = best >= 0 && y[at] == xp[best];
    const bool index_ok = !with_indices || indices[at] == plane * in_plane + best;
    if ((!value_ok || !index_ok) && ++mismatches <= 5) {
      ADD_FAILURE() << "plane " << plane << " output " << o << ": got " << +y[at] << " at "
                    << (with_indices ? indices[at] : -2) << ", expected " << +xp[best] << " at "
                    << plane * in_plane + best;
    }
  }
  EXPECT_EQ(mismatches, 0);
}

TEST(LargeTensors, MaxPoolAndAveragePoolOnA3DPlanePast4GiB) {
  const Windows w{{1040, 1024, 1024}, {3, 3, 3}, {2, 2, 2}, {1, 1, 1}};
  const int64_t n = element_count(w.input);  // 1.09e9 float32: 4.06 GiB
  auto x = uninitialized<float>(n);
  in_parallel(n, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) x[i] = static_cast<float>(mix(static_cast<uint64_t>(i)) >> 40) * 0x1p-24f - 0.5f;
  });
  check_max_pool(x.get(), ElementType::kFloat32, 1, w, /*with_indices=*/true);

  const std::vector<int64_t> out = w.output();
  auto y = uninitialized<float>(element_count(out));
  std::vector<int64_t> y_shape = {1, 1};
  y_shape.insert(y_shape.end(), out.begin(), out.end());
  const onnxpool::Status s = onnxpool::average_pool(
      attributes_for(PoolOp::kAveragePool, w),
      onnxpool::TensorView(static_cast<const void*>(x.get()), ElementType::kFloat32, {1, 1, 1040, 1024, 1024}),
      onnxpool::TensorView(y.get(), ElementType::kFloat32, y_shape));
  ASSERT_TRUE(s) << s.message();
  int mismatches = 0;
  for (const auto& [plane, o] : outputs_to_check(last_piece_starts(), 1, out, 20000)) {
    double sum = 0;
    int count = 0;
    for_each_tap(w, out, o, [&](int64_t p) {
      sum += x[p];
      ++count;
    });
    // 27 float32 taps of magnitude <= 0.5, summed in float32: a few ulps of 0.5.
    if (std::abs(y[o] - sum / count) > 4e-7 && ++mismatches <= 5) {
      ADD_FAILURE() << "AveragePool output " << o << ": got " << y[o] << ", expected " << sum / count;
    }
  }
  EXPECT_EQ(mismatches, 0);
}

std::unique_ptr<int8_t[]> int8_values(int64_t n) {
  auto x = uninitialized<int8_t>(n);
  in_parallel(n, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) x[i] = static_cast<int8_t>(mix(static_cast<uint64_t>(i)) >> 56);
  });
  return x;
}

TEST(LargeTensors, Int8MaxPoolIndicesPast2Pow32) {
  // Two planes of 2^31 + 2^19 elements: the second plane's Indices pass 2^32.
  const Windows w{{32776, 65536}, {3, 3}, {4, 4}, {1, 1}};
  const auto x = int8_values(2 * element_count(w.input));
  check_max_pool(x.get(), ElementType::kInt8, 2, w, /*with_indices=*/true);
}

TEST(LargeTensors, Int8MaxPoolAlongA1DAxisPast2Pow31) {
  const Windows w{{(int64_t{1} << 31) + 4099}, {3}, {2}, {1}};
  const auto x = int8_values(w.input[0]);
  check_max_pool(x.get(), ElementType::kInt8, 1, w, /*with_indices=*/false);
}

// Pads of 2^28 after 8 elements along the last axis: 2^28 outputs whose
// windows are all padding. The segments' call over them would buffer a row
// of 2^28 entries, past what a kernel may allocate at 8 bytes each, so such
// runs are cut into calls of 2^27 outputs (runtime/execute/window_segments.cpp).
TEST(LargeTensors, Int8MaxPoolOver2Pow28OutputsOfPadding) {
  const int64_t pad = int64_t{1} << 28, width = 8;
  PoolSpec spec;
  spec.kernel_shape = {1, 1};
  // Stride 2 along the one-row first axis keeps the call 2D: with stride 1
  // that axis would fold into the planes (runtime/plan/unit_axes.h).
  spec.strides = {2, 1};
  spec.pads = {0, 0, 0, pad};
  onnxpool::PoolAttributes a;
  ASSERT_TRUE(onnxpool::PoolAttributes::parse(PoolOp::kMaxPool, onnx_attributes(PoolOp::kMaxPool, spec), &a));
  int8_t x[width];
  for (int64_t i = 0; i < width; ++i) x[i] = static_cast<int8_t>(10 * i - 35);
  const int64_t outputs = width + pad;
  auto y = uninitialized<int8_t>(outputs);
  std::memset(y.get(), 0x55, static_cast<size_t>(outputs));
  const onnxpool::TensorView X(static_cast<const void*>(x), ElementType::kInt8, {1, 1, 1, width});
  const onnxpool::TensorView Y(y.get(), ElementType::kInt8, {1, 1, 1, outputs});
  const int64_t before = calls_run_in_segments();
  const onnxpool::Status s = onnxpool::max_pool(a, X, Y, nullptr);
  ASSERT_TRUE(s) << s.message();
  EXPECT_GT(calls_run_in_segments(), before);
  for (int64_t i = 0; i < width; ++i) EXPECT_EQ(y[i], x[i]) << "output " << i;
  // A window of padding only: the lowest int8 (docs/semantics.md).
  std::atomic<int64_t> wrong{0};
  in_parallel(outputs - width, [&](int64_t begin, int64_t end) {
    int64_t n = 0;
    for (int64_t o = width + begin; o < width + end; ++o) n += y[o] != std::numeric_limits<int8_t>::lowest();
    wrong += n;
  });
  EXPECT_EQ(wrong.load(), 0) << "outputs of padding windows other than -128";
}

// The global pools over one plane of `n` elements of X, against sums of
// every element in double: GlobalMaxPool exactly, the mean and the L2 norm
// within `tolerance` (relative).
void check_global_pools(const void* x, ElementType type, int64_t n, const std::function<double(int64_t)>& value,
                        double tolerance) {
  std::vector<double> sums(64, 0.0), squares(64, 0.0), largest(64, -INFINITY);
  in_parallel(64, [&](int64_t b, int64_t e) {
    for (int64_t part = b; part < e; ++part) {
      for (int64_t i = n * part / 64; i < n * (part + 1) / 64; ++i) {
        const double v = value(i);
        sums[part] += v;
        squares[part] += v * v;
        largest[part] = std::max(largest[part], v);
      }
    }
  });
  double sum = 0, square = 0, most = -INFINITY;
  for (int i = 0; i < 64; ++i) {
    sum += sums[i];
    square += squares[i];
    most = std::max(most, largest[i]);
  }
  const onnxpool::TensorView X(x, type, {1, 1, n});
  for (PoolOp op : {PoolOp::kGlobalMaxPool, PoolOp::kGlobalAveragePool, PoolOp::kGlobalLpPool}) {
    uint64_t y = 0;
    onnxpool::PoolAttributes a;
    ASSERT_TRUE(onnxpool::PoolAttributes::parse(op, {}, &a));
    const int64_t before = calls_run_in_pieces();
    const onnxpool::Status s = onnxpool::pool(a, X, onnxpool::TensorView(&y, type, {1, 1, 1}), nullptr);
    ASSERT_TRUE(s) << onnxpool::op_name(op) << ": " << s.message();
    EXPECT_GT(calls_run_in_pieces(), before) << onnxpool::op_name(op);
    double got = 0;
    if (type == ElementType::kFloat16) {
      got = float16_to_float(static_cast<uint16_t>(y));
    } else {
      float f;
      std::memcpy(&f, &y, sizeof f);
      got = f;
    }
    const double expected = op == PoolOp::kGlobalMaxPool ? most
                            : op == PoolOp::kGlobalAveragePool ? sum / static_cast<double>(n)
                                                               : std::sqrt(square);
    if (op == PoolOp::kGlobalMaxPool) {
      EXPECT_EQ(got, expected);
    } else {
      EXPECT_NEAR(got, expected, tolerance * std::abs(expected)) << onnxpool::op_name(op);
    }
  }
}

TEST(LargeTensors, Float16GlobalPoolsOverAPlanePast2Pow31Elements) {
  const int64_t n = (int64_t{1} << 31) + 12347;  // 4 GiB
  auto x = uninitialized<uint16_t>(n);
  // Finite values in [0, 1), subnormals included: bits 0 .. 0x3BFF.
  in_parallel(n, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) x[i] = static_cast<uint16_t>(mix(static_cast<uint64_t>(i)) % 0x3C00);
  });
  std::vector<double> table(65536);
  for (uint32_t bits = 0; bits < 65536; ++bits) table[bits] = float16_to_float(static_cast<uint16_t>(bits));
  // The results are float16: within one ulp (2^-10 relative) of the exact value.
  check_global_pools(x.get(), ElementType::kFloat16, n, [&](int64_t i) { return table[x[i]]; }, 0x1p-10);
}

TEST(LargeTensors, Float32GlobalPoolsOverAPlanePast2GiB) {
  const int64_t n = (int64_t{1} << 29) + 777;  // 2 GiB + 3 KiB
  auto x = uninitialized<float>(n);
  in_parallel(n, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) x[i] = static_cast<float>(mix(static_cast<uint64_t>(i)) >> 40) * 0x1p-24f;
  });
  // float32 sums of 65536-element sub-planes, combined in long double.
  check_global_pools(x.get(), ElementType::kFloat32, n, [&](int64_t i) { return x[i]; }, 1e-5);
}

// Under 2^31 bytes, one kernel call would run the plane whole, one float32
// sum per lane: those sums stopped growing past 2^24 times their terms, and
// the mean of 2^29 - 2^16 ones came out 0.50006. Planes past 2^24 elements
// are summed as sub-planes (kLargestWholeGlobalPlane).
TEST(LargeTensors, Float32GlobalAverageOfOnePlaneUnder2GiBDoesNotStagnate) {
  const int64_t n = (int64_t{1} << 29) - (int64_t{1} << 16);
  std::vector<float> x(static_cast<size_t>(n), 1.0f);
  onnxpool::PoolAttributes a;
  ASSERT_TRUE(onnxpool::PoolAttributes::parse(PoolOp::kGlobalAveragePool, {}, &a));
  float y = 0;
  const onnxpool::Status s =
      onnxpool::global_average_pool(a, onnxpool::TensorView(static_cast<const void*>(x.data()), ElementType::kFloat32,
                                                            {1, 1, n}),
                                    onnxpool::TensorView(&y, ElementType::kFloat32, {1, 1, 1}));
  ASSERT_TRUE(s) << s.message();
  EXPECT_EQ(y, 1.0f);
}

}  // namespace
}  // namespace onnxpool_test
