#include "dispatch/runtime_knobs.h"

#include <limits>

#include "onnxpool_kernel_table.h"

namespace onnxpool::detail {

bool set_runtime_knob(RuntimeKnobs* knobs, const std::string& name, int64_t value) {
  if (value < 1) return false;
  int64_t* field = name == "min_outputs_per_task"     ? &knobs->min_outputs_per_task
                   : name == "min_inputs_per_task"    ? &knobs->min_inputs_per_task
                   : name == "tasks_per_thread"       ? &knobs->tasks_per_thread
                   : name == "max_rows_per_task"      ? &knobs->max_rows_per_task
                   : name == "flat_plane_width_limit" ? &knobs->flat_plane_width_limit
                   : name == "max_flat_plane_area"    ? &knobs->max_flat_plane_area
                   : name == "long_plane_size"        ? &knobs->long_plane_size
                                                      : nullptr;
  if (field == nullptr) return false;
  *field = value;
  return true;
}

const RuntimeKnobs& runtime_knobs_of(int target) { return kRuntimeKnobs[target < 0 ? 0 : target]; }

int64_t rows_per_task_cap_of(int target) {
  const int64_t knob = runtime_knobs_of(target).max_rows_per_task;
  if (knob > 0) return knob;
  const bool avx512 = target >= 0 && kTargets[target].cpu_variant == CpuVariant::kAvx512;
  return avx512 ? 16 : std::numeric_limits<int64_t>::max();
}

#ifdef ONNXPOOL_TEST_HOOKS
RuntimeKnobs replace_runtime_knobs(size_t target, const RuntimeKnobs& knobs) {
  const RuntimeKnobs previous = kRuntimeKnobs[target];
  kRuntimeKnobs[target] = knobs;
  return previous;
}
#endif

}  // namespace onnxpool::detail
