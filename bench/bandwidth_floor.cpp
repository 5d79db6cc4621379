#include "bandwidth_floor.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

#include "aligned_buffer.h"
#include "bench_registry.h"
#include "spin_pool.h"
#include "test_data.h"

namespace onnxpool_bench {
namespace {

struct Range {
  size_t begin;
  size_t end;
};

// Share `share` of `parts` of [0, count), with inner boundaries on multiples of
// 16 floats (64 bytes) so two threads never write the same cache line.
Range share_of(size_t count, int parts, int share) {
  constexpr size_t kGranule = 16;
  const size_t granules = (count + kGranule - 1) / kGranule;
  const size_t per_part = (granules + static_cast<size_t>(parts) - 1) / static_cast<size_t>(parts);
  const size_t begin = std::min(count, per_part * kGranule * static_cast<size_t>(share));
  const size_t end = std::min(count, begin + per_part * kGranule);
  return Range{begin, end};
}

// Many independent accumulator lanes, so the loop is limited by loads rather
// than by the latency of a single max chain; `a > b ? a : b` is exactly what
// x86's maxps computes, so the compiler vectorizes it without -ffast-math.
// target_clones picks the AVX-512 or AVX2 body at load time: a floor built for
// baseline SSE would flatter every kernel that uses wider vectors.
__attribute__((target_clones("avx512f", "avx2", "default"))) float max_of(const float* x,
                                                                          size_t count) {
  constexpr size_t kLanes = 64;
  float lanes[kLanes];
  for (float& lane : lanes) lane = -std::numeric_limits<float>::infinity();
  size_t i = 0;
  for (; i + kLanes <= count; i += kLanes) {
    for (size_t j = 0; j < kLanes; ++j) lanes[j] = x[i + j] > lanes[j] ? x[i + j] : lanes[j];
  }
  for (; i < count; ++i) lanes[0] = x[i] > lanes[0] ? x[i] : lanes[0];
  float result = lanes[0];
  for (float lane : lanes) result = lane > result ? lane : result;
  return result;
}

void bench_floor_copy(benchmark::State& state, const PoolCase& pc, int64_t output_bytes) {
  const AlignedBuffer<float>& input = test_input(pc);
  AlignedBuffer<float> scratch(input.size(), 0.0f);
  AlignedBuffer<float> output(static_cast<size_t>(output_bytes) / sizeof(float), 0.0f);
  SpinPool pool(benchmark_threads(state));

  auto copy_then_store = [&](int share) {
    const Range in = share_of(input.size(), pool.threads(), share);
    std::memcpy(scratch.data() + in.begin, input.data() + in.begin,
                (in.end - in.begin) * sizeof(float));
    const Range out = share_of(output.size(), pool.threads(), share);
    std::memset(output.data() + out.begin, 0, (out.end - out.begin) * sizeof(float));
  };
  for (auto _ : state) {
    pool.run(copy_then_store);
    benchmark::ClobberMemory();
  }
  set_byte_counters(state,
                    pc.input_elements() * static_cast<int64_t>(sizeof(float)) + output_bytes);
}

void bench_floor_read(benchmark::State& state, const PoolCase& pc, int64_t output_bytes) {
  const AlignedBuffer<float>& input = test_input(pc);
  SpinPool pool(benchmark_threads(state));
  struct alignas(64) Partial {  // one cache line each: no false sharing
    float value;
  };
  std::vector<Partial> partials(static_cast<size_t>(pool.threads()));

  auto reduce = [&](int share) {
    const Range in = share_of(input.size(), pool.threads(), share);
    partials[static_cast<size_t>(share)].value = max_of(input.data() + in.begin, in.end - in.begin);
  };
  auto combined = [&] {
    float result = -std::numeric_limits<float>::infinity();
    for (const Partial& p : partials) result = std::max(result, p.value);
    return result;
  };

  // Sanity check of the split and the vector loop: a reduction that skipped
  // bytes would be a floor below the truth.
  pool.run(reduce);
  if (combined() != *std::max_element(input.data(), input.data() + input.size())) {
    state.SkipWithError("floor_read: the vectorized max disagrees with std::max_element");
    return;
  }
  for (auto _ : state) {
    pool.run(reduce);
    float result = combined();
    benchmark::DoNotOptimize(result);
  }
  set_byte_counters(state,
                    pc.input_elements() * static_cast<int64_t>(sizeof(float)) + output_bytes);
}

}  // namespace

void register_bandwidth_floor_benchmarks(const char* op, const PoolCase& pool_case,
                                         int64_t output_bytes) {
  register_pool_benchmark(op, pool_case, "floor_copy",
                          [&pool_case, output_bytes](benchmark::State& s) {
                            bench_floor_copy(s, pool_case, output_bytes);
                          });
  register_pool_benchmark(op, pool_case, "floor_read",
                          [&pool_case, output_bytes](benchmark::State& s) {
                            bench_floor_read(s, pool_case, output_bytes);
                          });
}

}  // namespace onnxpool_bench
