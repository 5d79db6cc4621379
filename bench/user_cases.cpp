#include "user_cases.h"

#include <cstdio>
#include <deque>
#include <memory>
#include <string>

#include "bandwidth_floor.h"
#include "bench_registry.h"
#include "case_pool_node.h"
#include "case_string.h"
#include "onnxpool_case_pool.h"
#include "pool_bench.h"
#include "pool_node.h"
#include "shapes.h"

namespace onnxpool_bench {
namespace {

// The benchmarks capture their case by reference, so every case lives here
// until the program ends.
std::deque<CaseSpec>& specs() {
  static std::deque<CaseSpec> storage;
  return storage;
}
std::deque<PoolCase>& pool_cases() {
  static std::deque<PoolCase> storage;
  return storage;
}
std::deque<PoolNode>& pool_nodes() {
  static std::deque<PoolNode> storage;
  return storage;
}

bool all_equal(const std::vector<int64_t>& values, int64_t value) {
  for (int64_t v : values) {
    if (v != value) return false;
  }
  return true;
}

// The case as the suite's PoolCase, if it is one: it then gets every row the
// suite has (onnxpool_operator included). Lp nodes are left to the per-node
// rows, where each C++ peer says it has no Lp pooling instead of having no row.
bool as_suite_case(const CaseSpec& spec, PoolCase* pc) {
  if (spec.shape.size() != 4 || spec.type != onnxpool::ElementType::kFloat32) return false;
  if (spec.op == onnxpool::PoolOp::kLpPool || spec.op == onnxpool::PoolOp::kGlobalLpPool) return false;
  if (spec.p != kLpP || spec.count_include_pad != kCountIncludePad) return false;
  const int64_t n = spec.shape[0], c = spec.shape[1], h = spec.shape[2], w = spec.shape[3];
  if (spec.global) {
    *pc = global_window(spec.text.c_str(), n, c, h, w);
    return true;
  }
  if (spec.ceil_mode || !spec.auto_pad.empty() || !all_equal(spec.dilations, 1)) return false;
  const std::vector<int64_t> strides = spec.strides.empty() ? std::vector<int64_t>{1, 1} : spec.strides;
  const std::vector<int64_t> pads = spec.pads.empty() ? std::vector<int64_t>{0, 0, 0, 0} : spec.pads;
  *pc = PoolCase{spec.text.c_str(), n, c, h, w, spec.kernel_shape[0], spec.kernel_shape[1],
                 strides[0], strides[1], pads[0], pads[1], pads[2], pads[3]};
  return true;
}

void bench_onnxpool_case(benchmark::State& state, const CaseSpec& spec, bool with_indices,
                         CaseCall call = CaseCall::kOneShot) {
  const std::unique_ptr<PoolRunner> runner =
      make_onnxpool_case_pool(spec, with_indices, benchmark_threads(state), call);
  if (!runner->error().empty() || !runner->run()) {
    state.SkipWithError(runner->error().c_str());
    return;
  }
  for (auto _ : state) {
    if (!runner->run()) {
      state.SkipWithError(runner->error().c_str());
      break;
    }
  }
  const int64_t outputs = element_count(spec.output_shape);
  const auto width = static_cast<int64_t>(onnxpool::element_size(spec.type));
  set_byte_counters(state, width * (element_count(spec.shape) + outputs) + (with_indices ? 8 * outputs : 0));
  state.SetLabel(runner->label());
}

// A case the suite's rows do not describe: onnxpool's rows, for float32 every
// C++ peer row on the node's own geometry (each one timed, or saying why the
// peer cannot run the node), and the floor.
void register_node_case(const CaseSpec& spec, const PoolNode& node) {
  // A PoolCase carrying the case's name and its input's size in float32s,
  // which is all the floor reads of it.
  const auto width = static_cast<int64_t>(onnxpool::element_size(spec.type));
  const int64_t input_bytes = width * element_count(spec.shape);
  const PoolCase& bytes_case =
      pool_cases().emplace_back(square_window(spec.text.c_str(), 1, 1, 1, (input_bytes + 3) / 4, 1, 1, 0));
  for (bool with_indices : {false, true}) {
    if (with_indices && spec.op != onnxpool::PoolOp::kMaxPool) continue;
    register_pool_benchmark(spec.op_name, bytes_case, with_indices ? "onnxpool_indices" : "onnxpool",
                            [&spec, with_indices](benchmark::State& state) {
                              bench_onnxpool_case(state, spec, with_indices);
                            });
  }
  register_pool_benchmark(spec.op_name, bytes_case, "onnxpool_operator", [&spec](benchmark::State& state) {
    bench_onnxpool_case(state, spec, /*with_indices=*/false, CaseCall::kCreated);
  });
  // The peers are set up and checked in float32 only; other types keep no
  // peer rows, which the reports show as "not run" (register_user_cases says why on stderr).
  if (spec.type == onnxpool::ElementType::kFloat32) register_node_peers(node, bytes_case);
  register_bandwidth_floor_benchmarks(spec.op_name, bytes_case, width * element_count(spec.output_shape));
}

}  // namespace

bool register_user_cases(const std::vector<std::string>& texts, std::string* error) {
  std::vector<CaseSpec> parsed(texts.size());
  for (size_t i = 0; i < texts.size(); ++i) {
    if (!parse_case_string(texts[i], &parsed[i], error)) return false;
  }
  for (CaseSpec& spec_value : parsed) {
    const CaseSpec& spec = specs().emplace_back(std::move(spec_value));
    PoolCase pc;
    if (as_suite_case(spec, &pc)) {
      register_case(suite_op(spec.op), pool_cases().emplace_back(pc));
      continue;
    }
    PoolNode node;
    if (!case_pool_node(spec, &node, error)) return false;
    // A float32 node gets every peer row (timed, or an error saying why the
    // peer cannot run it), so only other types are worth a line; tools/main.sh
    // hides lines with "floor only" from the census's screen output.
    if (spec.type != onnxpool::ElementType::kFloat32) {
      std::fprintf(stderr,
                   "onnxpool_bench: %s: onnxpool and the bandwidth floor only (the benchmark runs "
                   "oneDNN and XNNPACK in float32 only)\n",
                   spec.text.c_str());
    }
    register_node_case(spec, pool_nodes().emplace_back(std::move(node)));
  }
  return true;
}

bool describe_user_cases(const std::vector<std::string>& texts, std::string* error) {
  std::string json = "[";
  for (size_t i = 0; i < texts.size(); ++i) {
    CaseSpec spec;
    if (!parse_case_string(texts[i], &spec, error)) return false;
    json += (i ? ",\n " : "") + case_json(spec);
  }
  std::printf("%s]\n", json.c_str());
  return true;
}

}  // namespace onnxpool_bench
