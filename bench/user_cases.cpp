#include "user_cases.h"

#include <cstdio>
#include <deque>
#include <memory>

#include "bandwidth_floor.h"
#include "bench_registry.h"
#include "case_string.h"
#include "onnxpool_case_pool.h"
#include "pool_bench.h"
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

const PoolOpSpec& suite_op(onnxpool::PoolOp op) {
  switch (op) {
    case onnxpool::PoolOp::kMaxPool: return kMaxPool;
    case onnxpool::PoolOp::kAveragePool: return kAveragePool;
    case onnxpool::PoolOp::kLpPool: return kLpPool;
    case onnxpool::PoolOp::kGlobalMaxPool: return kGlobalMaxPool;
    case onnxpool::PoolOp::kGlobalAveragePool: return kGlobalAveragePool;
    case onnxpool::PoolOp::kGlobalLpPool: return kGlobalLpPool;
  }
  return kMaxPool;
}

bool all_equal(const std::vector<int64_t>& values, int64_t value) {
  for (int64_t v : values) {
    if (v != value) return false;
  }
  return true;
}

// The case as the suite's PoolCase (what the peers' wrappers take), if it is one.
bool as_suite_case(const CaseSpec& spec, PoolCase* pc) {
  if (spec.shape.size() != 4 || spec.type != onnxpool::ElementType::kFloat32) return false;
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

void bench_onnxpool_case(benchmark::State& state, const CaseSpec& spec, bool with_indices) {
  const std::unique_ptr<PoolRunner> runner = make_onnxpool_case_pool(spec, with_indices, benchmark_threads(state));
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

// onnxpool's rows and the floor, for a case no C++ peer takes.
void register_onnxpool_only(const CaseSpec& spec) {
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
    } else {
      std::fprintf(stderr,
                   "onnxpool_bench: %s: onnxpool and the bandwidth floor only (oneDNN and XNNPACK rows "
                   "are for 2D float32 cases without dilations, ceil_mode, auto_pad or count_include_pad)\n",
                   spec.text.c_str());
      register_onnxpool_only(spec);
    }
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
