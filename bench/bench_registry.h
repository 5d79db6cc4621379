// How every onnxpool benchmark is named and registered.
//
// Names follow one scheme, so tools/bench_report.py can group and compare rows
// without knowing any operator:
//
//   BM_<op>/<case>/<impl>/threads:<n>/real_time
//
//   op       ONNX operator name: MaxPool, AveragePool, LpPool, GlobalMaxPool, ...;
//            CallOverhead for the cost of one call on a 1x1x1x1 tensor
//   case     PoolCase::id: S1, S2, ...
//   impl     [A-Za-z0-9_]+, by prefix: "onnxpool..." is ours, "floor_..." a
//            bandwidth-floor row, anything else a peer ("onednn_nhwc", ...;
//            bench/python_peers.py writes "onnxruntime_nchw", "torch_nhwc", ...)
//   n        threads the implementation was told to use; the benchmark itself
//            sets it (Google Benchmark's own ->Threads() would instead run n
//            copies of the benchmark at once, which is not what is measured)
//   real_time  appended by Google Benchmark: wall time is measured, since the
//            work happens on threads other than the timing one
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <functional>
#include <string>

#include "shapes.h"

namespace onnxpool_bench {

inline constexpr int kThreadCounts[] = {1, 2};

using BenchmarkBody = std::function<void(benchmark::State&)>;

// Registers `body` as BM_<op>/<case>/<impl>, once per entry of kThreadCounts.
void register_pool_benchmark(const char* op, const PoolCase& pool_case, const std::string& impl,
                             BenchmarkBody body);

// The thread count this run of a registered benchmark must use.
int benchmark_threads(const benchmark::State& state);

// Reports the bytes one run of the operator must move (input read plus
// outputs written) as bytes_per_second, and per run as "bytes".
void set_byte_counters(benchmark::State& state, int64_t bytes_per_run);

}  // namespace onnxpool_bench
