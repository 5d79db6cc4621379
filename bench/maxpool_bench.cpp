// MaxPool: onnxpool against oneDNN, XNNPACK and the bandwidth floor, on S1-S4,
// all in one binary so one run measures them under the same conditions.
#include <benchmark/benchmark.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "bandwidth_floor.h"
#include "bench_registry.h"
#include "onnxpool_maxpool.h"
#include "peers/onednn_pool.h"
#include "peers/xnnpack_pool.h"
#include "pool_runner.h"
#include "shapes.h"
#include "test_data.h"

namespace onnxpool_bench {
namespace {

using MakeRunner =
    std::function<std::unique_ptr<PoolRunner>(const PoolCase&, int threads, const float* input)>;

// Runs once and compares with the reference before any timing, so a peer set
// up wrongly (layout, padding, threads) is reported as an error, not a number.
std::string check_max_pool(const PoolCase& pc, PoolRunner& runner) {
  if (!runner.run()) return runner.error();
  const MaxPoolResult& expected = expected_max_pool(pc);
  const std::vector<float> values = runner.output_nchw();
  if (values.size() != expected.values.size()) return "output has the wrong number of elements";
  std::string mismatch =
      first_mismatch("output", values.data(), expected.values.data(), values.size());
  if (!mismatch.empty()) return mismatch;
  if (!runner.has_indices()) return std::string();
  const std::vector<int64_t> indices = runner.indices();
  if (indices.size() != expected.indices.size()) return "Indices has the wrong number of elements";
  return first_mismatch("Indices", indices.data(), expected.indices.data(), indices.size());
}

void bench_max_pool(benchmark::State& state, const PoolCase& pc, const MakeRunner& make_runner) {
  const std::unique_ptr<PoolRunner> runner =
      make_runner(pc, benchmark_threads(state), test_input(pc).data());
  std::string error = runner->error();
  if (error.empty()) error = check_max_pool(pc, *runner);
  if (!error.empty()) {
    state.SkipWithError(error.c_str());
    return;
  }

  for (auto _ : state) {
    if (!runner->run()) {
      state.SkipWithError(runner->error().c_str());
      break;
    }
  }

  const int64_t indices_bytes =
      runner->has_indices() ? pc.output_elements() * static_cast<int64_t>(sizeof(int64_t)) : 0;
  set_byte_counters(
      state, static_cast<int64_t>(sizeof(float)) * (pc.input_elements() + pc.output_elements()) +
                 indices_bytes);
  state.SetLabel(runner->label());
}

void register_max_pool_case(const PoolCase& pc) {
  const auto add = [&pc](const std::string& impl, MakeRunner make_runner) {
    register_pool_benchmark("MaxPool", pc, impl, [&pc, make_runner](benchmark::State& state) {
      bench_max_pool(state, pc, make_runner);
    });
  };

  add("onnxpool", [](const PoolCase& c, int threads, const float* input) {
    return make_onnxpool_max_pool(c, /*with_indices=*/false, threads, input);
  });
  add("onnxpool_indices", [](const PoolCase& c, int threads, const float* input) {
    return make_onnxpool_max_pool(c, /*with_indices=*/true, threads, input);
  });
  for (OnednnLayout layout : {OnednnLayout::kNchw, OnednnLayout::kNhwc, OnednnLayout::kNChw16c}) {
    add(std::string("onednn_") + onednn_layout_name(layout),
        [layout](const PoolCase& c, int threads, const float* input) {
          return make_onednn_max_pool(c, layout, threads, input);
        });
  }
  add("xnnpack_nhwc", [](const PoolCase& c, int threads, const float* input) {
    return make_xnnpack_max_pool(c, threads, input);
  });
  register_bandwidth_floor_benchmarks("MaxPool", pc,
                                      pc.output_elements() * static_cast<int64_t>(sizeof(float)));
}

// Registration at static-initialization time, like Google Benchmark's own
// BENCHMARK macro; kMaxPoolCases is constexpr, so it is ready by then.
const bool registered = [] {
  for (const PoolCase& pc : kMaxPoolCases) register_max_pool_case(pc);
  return true;
}();

}  // namespace
}  // namespace onnxpool_bench
