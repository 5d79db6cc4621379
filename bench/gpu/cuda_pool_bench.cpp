// onnxpool's CUDA kernels on the benchmark cases of shapes.h, with CUDA
// device tensors, against a device-to-device copy as the bandwidth floor.
// PyTorch on the same GPU is timed by bench/torch_gpu_peers.py under the
// same names, and tools/bench_report.py merges the two (bench/README.md).
//
//   BM_<op>/<case>/<impl>/threads:1/{manual_time,real_time}
//
//   onnxpool_cuda          one onnxpool::pool call between two CUDA events
//                          (manual_time): the host's validation and launch
//                          plus the kernels, as an event pair around a
//                          PyTorch call measures it
//   onnxpool_cuda_indices  the same, MaxPool with its Indices output
//   onnxpool_cuda_wall     one call's wall time on the host (real_time): what
//                          a caller waits, pool()'s synchronization included
//   floor_cuda_copy        cuMemcpyDtoD moving as many bytes as the operator
//                          (input read plus output written: a copy of half
//                          that many), between two events
//
// threads:1 keeps the CPU benchmark's name scheme: one host thread calls;
// onnxpool's thread count does not matter to its GPU kernels.
#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <string>

#include "bench_registry.h"
#include "cuda_event_timer.h"
#include "cuda_pool_runner.h"
#include "shapes.h"
#include "support/cuda_driver.h"

namespace onnxpool_bench {
namespace {

enum class Clock { kCudaEvents, kHostWall };

// One runner per benchmark, made on its first run: Google Benchmark calls a
// benchmark function again for every repetition, and S2's input is 100 MB.
CudaPoolRunner& runner_for(const std::string& name, const PoolOpSpec& op, const PoolCase& pc, bool with_indices) {
  static std::map<std::string, std::unique_ptr<CudaPoolRunner>> runners;
  std::unique_ptr<CudaPoolRunner>& runner = runners[name];
  if (!runner) runner = std::make_unique<CudaPoolRunner>(op, pc, with_indices);
  return *runner;
}

int64_t operator_bytes(const PoolCase& pc) {
  return static_cast<int64_t>(sizeof(float)) * (pc.input_elements() + pc.output_elements());
}

void bench_onnxpool(benchmark::State& state, const std::string& name, const PoolOpSpec& op, const PoolCase& pc,
                    bool with_indices, Clock clock) {
  CudaPoolRunner& runner = runner_for(name, op, pc, with_indices);
  CudaEventTimer timer;
  std::string error = runner.error().empty() ? timer.error() : runner.error();
  for (auto _ : state) {
    if (!error.empty()) break;
    if (clock == Clock::kHostWall) {
      if (!runner.run()) error = runner.error();
      continue;
    }
    double seconds = 0.0;
    error = timer.start();
    if (error.empty() && !runner.run()) error = runner.error();
    if (error.empty()) error = timer.stop(&seconds);
    state.SetIterationTime(seconds);
  }
  if (!error.empty()) {
    state.SkipWithError(error.c_str());
    return;
  }
  const int64_t indices_bytes = with_indices ? pc.output_elements() * static_cast<int64_t>(sizeof(int64_t)) : 0;
  set_byte_counters(state, operator_bytes(pc) + indices_bytes);
  state.SetLabel(onnxpool_cuda::CudaDriver::get().device_description());
}

void bench_copy_floor(benchmark::State& state, const PoolCase& pc) {
  onnxpool_cuda::CudaDriver& cuda = onnxpool_cuda::CudaDriver::get();
  const size_t bytes = static_cast<size_t>(operator_bytes(pc)) / 2;
  onnxpool_cuda::DeviceAllocation source, destination;
  CudaEventTimer timer;
  std::string error = cuda.ok() ? timer.error() : cuda.failure();
  if (error.empty()) error = source.create(bytes);
  if (error.empty()) error = destination.create(bytes);
  if (error.empty()) error = cuda.fill(source.address(), 0x3C, bytes);
  for (auto _ : state) {
    if (!error.empty()) break;
    double seconds = 0.0;
    error = timer.start();
    if (error.empty()) error = cuda.copy_on_device(destination.address(), source.address(), bytes);
    if (error.empty()) error = timer.stop(&seconds);
    state.SetIterationTime(seconds);
  }
  if (!error.empty()) {
    state.SkipWithError(error.c_str());
    return;
  }
  set_byte_counters(state, operator_bytes(pc));
  state.SetLabel("cuMemcpyDtoD of " + std::to_string(bytes) + " bytes");
}

// BM_<op>/<case>/<impl>/threads:1, timed by `clock`.
void add(const char* op_name, const PoolCase& pc, const std::string& impl, Clock clock, BenchmarkBody body) {
  const std::string name = std::string("BM_") + op_name + "/" + pc.id + "/" + impl;
  benchmark::internal::Benchmark* bench = benchmark::RegisterBenchmark(name.c_str(), std::move(body));
  bench->ArgName("threads")->Arg(1)->Unit(benchmark::kMicrosecond);
  if (clock == Clock::kCudaEvents) {
    bench->UseManualTime();
  } else {
    bench->UseRealTime();
  }
}

// `op` and `pc` live in static storage (shapes.h), so capturing them by
// reference is safe for the life of the program.
void register_onnxpool(const char* op_name, const PoolOpSpec& op, const PoolCase& pc, const std::string& impl,
                       bool with_indices, Clock clock) {
  const std::string key = std::string(op_name) + "/" + pc.id + "/" + impl;
  add(op_name, pc, impl, clock, [key, &op, &pc, with_indices, clock](benchmark::State& state) {
    bench_onnxpool(state, key, op, pc, with_indices, clock);
  });
}

void register_case(const PoolOpSpec& op, const PoolCase& pc) {
  register_onnxpool(op.name, op, pc, "onnxpool_cuda", false, Clock::kCudaEvents);
  if (op.reduction == Reduction::kMax && !op.global) {
    register_onnxpool(op.name, op, pc, "onnxpool_cuda_indices", true, Clock::kCudaEvents);
  }
  register_onnxpool(op.name, op, pc, "onnxpool_cuda_wall", false, Clock::kHostWall);
  add(op.name, pc, "floor_cuda_copy", Clock::kCudaEvents,
      [&pc](benchmark::State& state) { bench_copy_floor(state, pc); });
}

// At static-initialization time, like the CPU benchmark (pool_bench.cpp),
// in the same order.
const bool registered = [] {
  for_each_suite_case(register_case);
  // What one call costs whatever its size: MaxPool 1x1 on one element.
  register_onnxpool(kCallOverheadOp, kMaxPool, kT0, "onnxpool_cuda", false, Clock::kCudaEvents);
  register_onnxpool(kCallOverheadOp, kMaxPool, kT0, "onnxpool_cuda_wall", false, Clock::kHostWall);
  // The device, once, in the JSON's context (the rows' labels repeat it).
  benchmark::AddCustomContext("cuda_device", onnxpool_cuda::CudaDriver::get().ok()
                                                 ? onnxpool_cuda::CudaDriver::get().device_description()
                                                 : onnxpool_cuda::CudaDriver::get().failure());
  return true;
}();

}  // namespace
}  // namespace onnxpool_bench
