// Planes past 2^31 bytes run in pieces (runtime/execute/large_planes.h): is a byte
// of such a plane as fast as a byte of one that fits a kernel buffer? Each
// pair times the same node on one plane just under 2^31 bytes and on one
// past it, and reports X's bytes per second. (The windowed pools run the
// first in one kernel call; the global pools reduce both as sub-planes,
// kLargestWholeGlobalPlane.) Run by hand (it allocates up to 4.6 GiB):
// docs/large-tensors.md quotes it.
//   build/bench/onnxpool_large_plane_bench --benchmark_repetitions=5 \
//     --benchmark_enable_random_interleaving=true
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "aligned_buffer.h"
#include "onnxpool/onnxpool.h"

namespace {

using onnxpool::ElementType;

struct Node {
  onnxpool::PoolOp op;
  ElementType type;
  std::vector<int64_t> x_shape;
  onnxpool::Attributes attributes;
};

int64_t count_of(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

void run_node(benchmark::State& state, const Node& node) {
  onnxpool::PoolAttributes a;
  onnxpool::Status s = onnxpool::PoolAttributes::parse(node.op, node.attributes, &a);
  std::vector<int64_t> y_shape;
  if (s) s = onnxpool::infer_output_shape(a, node.x_shape, &y_shape);
  if (!s) return state.SkipWithError(s.message().c_str());
  const size_t element = onnxpool::element_size(node.type);
  // Bytes of small values (0x3C3C..: 1.0-ish float16, 0.0115 float32): finite everywhere.
  onnxpool_bench::AlignedBuffer<uint8_t> x(static_cast<size_t>(count_of(node.x_shape)) * element, 0x3C);
  onnxpool_bench::AlignedBuffer<uint8_t> y(static_cast<size_t>(count_of(y_shape)) * element, 0);
  const onnxpool::TensorView X(static_cast<const void*>(x.data()), node.type, node.x_shape);
  const onnxpool::TensorView Y(y.data(), node.type, y_shape);
  for (auto _ : state) {
    s = onnxpool::pool(a, X, Y, nullptr);
    if (!s) return state.SkipWithError(s.message().c_str());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * count_of(node.x_shape) *
                          static_cast<int64_t>(element));
}

onnxpool::Attributes window_3x3x3() {
  onnxpool::Attributes a;
  a.set("kernel_shape", std::vector<int64_t>{3, 3, 3})
      .set("strides", std::vector<int64_t>{2, 2, 2})
      .set("pads", std::vector<int64_t>{1, 1, 1, 1, 1, 1});
  return a;
}

void register_pair(const std::string& name, Node whole, Node pieces) {
  for (int i = 0; i < 2; ++i) {
    const Node node = i == 0 ? whole : pieces;
    const std::string label = name + (i == 0 ? "/under_2GiB" : "/past_2GiB");
    benchmark::RegisterBenchmark(label.c_str(), [node](benchmark::State& state) { run_node(state, node); })
        ->Unit(benchmark::kMillisecond)
        ->MinTime(1.0)
        ->UseRealTime();
  }
}

}  // namespace

int main(int argc, char** argv) {
  using onnxpool::PoolOp;
  const int64_t mi = int64_t{1} << 20;
  // 508 and 1040 slices of 4 MiB: 2.0e9 and 4.4e9 bytes.
  register_pair("MaxPool_f32_3d_k3s2p1", {PoolOp::kMaxPool, ElementType::kFloat32, {1, 1, 508, 1024, 1024}, window_3x3x3()},
                {PoolOp::kMaxPool, ElementType::kFloat32, {1, 1, 1040, 1024, 1024}, window_3x3x3()});
  register_pair("AveragePool_f32_3d_k3s2p1",
                {PoolOp::kAveragePool, ElementType::kFloat32, {1, 1, 508, 1024, 1024}, window_3x3x3()},
                {PoolOp::kAveragePool, ElementType::kFloat32, {1, 1, 1040, 1024, 1024}, window_3x3x3()});
  register_pair("GlobalAveragePool_f32", {PoolOp::kGlobalAveragePool, ElementType::kFloat32, {1, 1, 508 * mi}, {}},
                {PoolOp::kGlobalAveragePool, ElementType::kFloat32, {1, 1, 1040 * mi}, {}});
  register_pair("GlobalAveragePool_f16", {PoolOp::kGlobalAveragePool, ElementType::kFloat16, {1, 1, 1016 * mi}, {}},
                {PoolOp::kGlobalAveragePool, ElementType::kFloat16, {1, 1, 2080 * mi}, {}});
  register_pair("GlobalMaxPool_f32", {PoolOp::kGlobalMaxPool, ElementType::kFloat32, {1, 1, 508 * mi}, {}},
                {PoolOp::kGlobalMaxPool, ElementType::kFloat32, {1, 1, 1040 * mi}, {}});
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
