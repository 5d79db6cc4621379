#include "bench_registry.h"

#include <utility>

namespace onnxpool_bench {

void register_pool_benchmark(const char* op, const PoolCase& pool_case, const std::string& impl,
                             BenchmarkBody body) {
  const std::string name = std::string("BM_") + op + "/" + pool_case.id + "/" + impl;
  benchmark::internal::Benchmark* bench =
      benchmark::RegisterBenchmark(name.c_str(), std::move(body));
  for (int threads : kThreadCounts) bench->Arg(threads);
  bench->ArgName("threads")->UseRealTime()->Unit(benchmark::kMicrosecond);
}

int benchmark_threads(const benchmark::State& state) { return static_cast<int>(state.range(0)); }

void set_byte_counters(benchmark::State& state, int64_t bytes_per_run) {
  state.SetBytesProcessed(state.iterations() * bytes_per_run);
  state.counters["bytes"] = benchmark::Counter(static_cast<double>(bytes_per_run));
}

}  // namespace onnxpool_bench
