// Every ONNX pooling operator: onnxpool against oneDNN, XNNPACK and the
// bandwidth floor, on the cases of shapes.h, all in one binary so one run
// measures them under the same conditions. (The Python peers, onnxruntime and
// PyTorch, are timed by bench/python_peers.py under the same names.)
#include <benchmark/benchmark.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "bandwidth_floor.h"
#include "bench_registry.h"
#include "onnxpool_pool.h"
#include "pool_bench.h"
#include "pool_node.h"
#include "peers/onednn_pool.h"
#include "peers/peer_rows.h"
#include "peers/xnnpack_pool.h"
#include "pool_runner.h"
#include "shapes.h"
#include "test_data.h"

namespace onnxpool_bench {
namespace {

using MakeRunner =
    std::function<std::unique_ptr<PoolRunner>(const PoolCase&, int threads, const float* input)>;

// Sums (average, Lp) are rounded differently by every implementation's order
// of additions; a max is exact.
constexpr double kRelTolerance = 1e-5;
constexpr double kAbsTolerance = 1e-6;

// Runs once and compares with the reference before any timing, so a peer set
// up wrongly (layout, padding, threads, count_include_pad) is reported as an
// error, not a number.
std::string check_output(const PoolOpSpec& op, const PoolCase& pc, PoolRunner& runner) {
  if (!runner.run()) return runner.error();
  const PoolResult& expected = expected_output(op, pc);
  const std::vector<float> values = runner.output_nchw();
  if (values.size() != expected.values.size()) return "output has the wrong number of elements";
  std::string mismatch =
      op.reduction == Reduction::kMax
          ? first_mismatch("output", values.data(), expected.values.data(), values.size())
          : first_mismatch_within("output", values.data(), expected.values.data(), values.size(),
                                  kRelTolerance, kAbsTolerance);
  if (!mismatch.empty()) return mismatch;
  if (!runner.has_indices()) return std::string();
  const std::vector<int64_t> indices = runner.indices();
  if (indices.size() != expected.indices.size()) return "Indices has the wrong number of elements";
  return first_mismatch("Indices", indices.data(), expected.indices.data(), indices.size());
}

// Times `runner` once `error` (its setup's, or its check's) is empty and it
// asks to be timed; otherwise the row is an error that says why. True if
// the row was timed.
bool time_checked_runner(benchmark::State& state, PoolRunner& runner, std::string error) {
  if (error.empty()) error = runner.not_timed();
  if (!error.empty()) {
    state.SkipWithError(error.c_str());
    return false;
  }
  for (auto _ : state) {
    if (!runner.run()) {
      state.SkipWithError(runner.error().c_str());
      return false;
    }
  }
  state.SetLabel(runner.label());
  return true;
}

void bench_pool(benchmark::State& state, const PoolOpSpec& op, const PoolCase& pc,
                const MakeRunner& make_runner) {
  const std::unique_ptr<PoolRunner> runner =
      make_runner(pc, benchmark_threads(state), test_input(pc).data());
  std::string error = runner->error();
  if (error.empty()) error = check_output(op, pc, *runner);
  if (!time_checked_runner(state, *runner, error)) return;
  const int64_t indices_bytes =
      runner->has_indices() ? pc.output_elements() * static_cast<int64_t>(sizeof(int64_t)) : 0;
  set_byte_counters(
      state, static_cast<int64_t>(sizeof(float)) * (pc.input_elements() + pc.output_elements()) +
                 indices_bytes);
}

using MakeNodeRunner =
    std::function<std::unique_ptr<PoolRunner>(const PoolNode&, int threads, const float* input)>;

// check_output for a case string's node, against reference_pool_node.
std::string check_node_output(const PoolNode& node, const std::string& id, PoolRunner& runner) {
  if (!runner.run()) return runner.error();
  const std::vector<float>& expected = expected_node_output(node, id);
  const std::vector<float> values = runner.output_nchw();
  if (values.size() != expected.size()) return "output has the wrong number of elements";
  return node.op.reduction == Reduction::kMax
             ? first_mismatch("output", values.data(), expected.data(), values.size())
             : first_mismatch_within("output", values.data(), expected.data(), values.size(),
                                     kRelTolerance, kAbsTolerance);
}

// bench_pool for a case string's node: a runner that cannot express the node,
// or whose output differs from the reference, is an error row that says why.
void bench_node(benchmark::State& state, const PoolNode& node, const std::string& id,
                const MakeNodeRunner& make_runner) {
  const std::unique_ptr<PoolRunner> runner =
      make_runner(node, benchmark_threads(state), test_input(id, node.input_elements()).data());
  std::string error = runner->error();
  if (error.empty()) error = check_node_output(node, id, *runner);
  if (!time_checked_runner(state, *runner, error)) return;
  set_byte_counters(state, static_cast<int64_t>(sizeof(float)) * (node.input_elements() + node.output_elements()));
}

}  // namespace

void register_node_peers(const PoolNode& node, const PoolCase& name_case) {
  const std::string id = name_case.id;
  for (PeerRow& row : peer_rows(node)) {
    register_pool_benchmark(node.op.name, name_case, row.impl,
                            [&node, id, make = std::move(row.make)](benchmark::State& state) {
                              bench_node(state, node, id, make);
                            });
  }
}

// `op` and `pc` must live as long as the program (shapes.h's tables, or
// user_cases.cpp's), since the benchmarks capture them by reference.
void register_case(const PoolOpSpec& op, const PoolCase& pc) {
  const auto add = [&op, &pc](const std::string& impl, MakeRunner make_runner) {
    register_pool_benchmark(op.name, pc, impl,
                            [&op, &pc, make_runner](benchmark::State& state) {
                              bench_pool(state, op, pc, make_runner);
                            });
  };

  add("onnxpool", [&op](const PoolCase& c, int threads, const float* input) {
    return make_onnxpool_pool(op, c, /*with_indices=*/false, threads, input);
  });
  add("onnxpool_operator", [&op](const PoolCase& c, int threads, const float* input) {
    return make_onnxpool_operator(op, c, threads, input);
  });
  if (op.reduction == Reduction::kMax && !op.global) {
    add("onnxpool_indices", [&op](const PoolCase& c, int threads, const float* input) {
      return make_onnxpool_pool(op, c, /*with_indices=*/true, threads, input);
    });
  }
  for (OnednnLayout layout : {OnednnLayout::kNchw, OnednnLayout::kNhwc, OnednnLayout::kNChw16c, OnednnLayout::kNChw8c}) {
    if (onednn_has_pooling(op)) {
      add(std::string("onednn_") + onednn_layout_name(layout),
          [&op, layout](const PoolCase& c, int threads, const float* input) {
            return make_onednn_pool(op, c, layout, threads, input);
          });
    }
    // oneDNN 2.6's reduction has a JIT kernel only when the reduced axes are
    // innermost (nchw); nhwc and nChw16c fall back to "ref:any", 100-300x
    // slower than its pooling, so only nchw is worth a row.
    if (op.global && layout == OnednnLayout::kNchw) {
      add(std::string("onednn_reduction_") + onednn_layout_name(layout),
          [&op, layout](const PoolCase& c, int threads, const float* input) {
            return make_onednn_reduction(op, c, layout, threads, input);
          });
    }
  }
  for (XnnpackLayout layout : {XnnpackLayout::kNhwc, XnnpackLayout::kNchw}) {
    if (!xnnpack_has(op, layout)) continue;
    add(std::string("xnnpack_") + xnnpack_layout_name(layout),
        [&op, layout](const PoolCase& c, int threads, const float* input) {
          return make_xnnpack_pool(op, c, layout, threads, input);
        });
  }
  register_bandwidth_floor_benchmarks(op.name, pc,
                                      pc.output_elements() * static_cast<int64_t>(sizeof(float)));
}

// The order here is the order of the run and of the report.
void register_suite() {
  for_each_suite_case(register_case);
  // What one call costs whatever its size: MaxPool 1x1 on one element.
  register_pool_benchmark(kCallOverheadOp, kT0, "onnxpool", [](benchmark::State& state) {
    bench_pool(state, kMaxPool, kT0, [](const PoolCase& c, int threads, const float* input) {
      return make_onnxpool_pool(kMaxPool, c, /*with_indices=*/false, threads, input);
    });
  });
  register_pool_benchmark(kCallOverheadOp, kT0, "onnxpool_operator", [](benchmark::State& state) {
    bench_pool(state, kMaxPool, kT0, [](const PoolCase& c, int threads, const float* input) {
      return make_onnxpool_operator(kMaxPool, c, threads, input);
    });
  });
}

}  // namespace onnxpool_bench
