// The run-time choices that are tunable (docs/tuning.md): which kernel a
// call takes and how finely its work is split across threads. Each default
// is the hand value, with the measurement behind it; a build takes the
// values of its tuning table's "runtime" row, per CPU target
// (cmake/OnnxpoolTuning.cmake writes them into onnxpool_kernel_table.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>

namespace onnxpool::detail {

struct RuntimeKnobs {
  // Below this many output elements per task, waking a second thread costs
  // more than it saves (the pool's wake-up is about 20 us on a 2-vCPU VM,
  // design.md section 6).
  int64_t min_outputs_per_task = 16 * 1024;
  // The same for the global kernels, counted in input elements read.
  int64_t min_inputs_per_task = 16 * 1024;
  // Tasks per thread, so a thread that finishes early takes another share.
  int64_t tasks_per_thread = 4;
  // At most this many output rows per task for the separable 2D and 3D
  // kernels' float32 and float64 calls without Indices (kernel_launch.cpp,
  // rows_capped): each task's row buffer holds a few rows and the input is
  // read in short bursts between the window stage's, where a task was a
  // whole plane (S1: 56 rows, a 25 KB buffer written whole, then read back).
  // Intel Xeon 6/167, 2026-12-07, the library with and without the cap in
  // alternating processes, medians of 4 rounds, 1 / 2 threads: MaxPool S1
  // 0.89 / 0.83, S2 0.90 / 1.00, AveragePool S1 0.95 / 0.82, LpPool S6
  // 0.93 / 0.93, 1x32x300x300 3x3/s2 0.95 / 0.95, float64 S1 0.96 / 0.90;
  // 12, 24 and 32 rows within a few percent of 16, 8 and 4 worse. On the
  // AMD EPYC Zen 3 (AVX2 kernels) smaller tasks were slower (14 rows 1.08 of
  // whole planes' time in one process, design-decisions.md), so the hand
  // default is per target: 0 means 16 rows on the AVX-512 target and no cap
  // on the others (rows_per_task_cap), until a tuning run there says more.
  int64_t max_rows_per_task = 0;
  // 2D "same" windows on planes narrower than this take the flat-plane
  // kernels (runtime/flat_plane.h): they cost the same per output at any
  // width (float32 MaxPool 3x3/s1/p1, 1 thread, AVX-512: 0.32-0.34 ns),
  // while the separable ones pay per row and win only on wide rows (0.26 ns
  // at 256 wide, 0.30 at 128, 0.33 at 64 (a tie), 0.41 at 56, 0.50 at 28,
  // 1.6 at 14; AveragePool alike).
  int64_t flat_plane_width_limit = 64;
  // ... and planes of at most this many elements: a plane's first pass (one
  // accumulator per element) stays in L2.
  int64_t max_flat_plane_area = 64 * 1024;
};

// Sets the knob called `name` (the field's name); false for an unknown name
// or a value below 1.
bool set_runtime_knob(RuntimeKnobs* knobs, const std::string& name, int64_t value);

// The defaults with `changes` applied: the generated table's rows.
inline RuntimeKnobs runtime_knobs_with(std::initializer_list<std::pair<const char*, int64_t>> changes) {
  RuntimeKnobs knobs;
  for (const auto& change : changes) set_runtime_knob(&knobs, change.first, change.second);
  return knobs;
}

// The knobs of the CPU target that calls run on now (within
// set_cpu_variant_limit); the first target's when this CPU runs none.
const RuntimeKnobs& runtime_knobs();

// max_rows_per_task for the CPU target that calls run on now, its hand
// default resolved.
int64_t rows_per_task_cap();

// tools/tune only, between calls: replaces CPU target `target`'s knobs and
// returns what it had.
RuntimeKnobs replace_runtime_knobs(size_t target, const RuntimeKnobs& knobs);

}  // namespace onnxpool::detail
