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
  // more than it saves (docs/design-decisions.md, "Thread pool and task shares").
  int64_t min_outputs_per_task = 16 * 1024;
  // The same for the global kernels, counted in input elements read.
  int64_t min_inputs_per_task = 16 * 1024;
  // Tasks per thread, so a thread that finishes early takes another share.
  int64_t tasks_per_thread = 4;
  // At most this many output rows per task for the separable 2D and 3D
  // kernels' float32 and float64 calls without Indices, so a task's row
  // buffer stays small; 0: 16 rows on the AVX-512 target, no cap on the
  // others (rows_per_task_cap_of; docs/design-decisions.md, "Thread pool and
  // task shares").
  int64_t max_rows_per_task = 0;
  // 2D "same" windows on planes narrower than this take the flat-plane
  // kernels (runtime/plan/flat_plane.h): they cost the same per output at any
  // width, while the separable ones pay per row and win only on wide rows
  // (docs/design-decisions.md, "Flat-plane kernels").
  int64_t flat_plane_width_limit = 64;
  // ... and planes of at most this many elements: a plane's first pass (one
  // accumulator per element) stays in L2.
  int64_t max_flat_plane_area = 64 * 1024;
  // GlobalAveragePool planes shorter than this never take the long-plane
  // kernels (runtime/plan/long_planes.h); longer ones do where their tail
  // is short enough (docs/design-decisions.md, "Long planes").
  int64_t long_plane_size = 64;
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

// The knobs of CPU target `target`; the first target's for -1 (a CPU that
// runs none).
const RuntimeKnobs& runtime_knobs_of(int target);

// max_rows_per_task for CPU target `target`, its hand default resolved.
int64_t rows_per_task_cap_of(int target);

#ifdef ONNXPOOL_TEST_HOOKS
// tools/tune only, between calls: replaces CPU target `target`'s knobs and
// returns what it had.
RuntimeKnobs replace_runtime_knobs(size_t target, const RuntimeKnobs& knobs);
#endif

}  // namespace onnxpool::detail
