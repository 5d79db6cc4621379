// What every frozen schedule (generators/schedules/frozen/<name>.cpp)
// includes. A frozen schedule is what an autoscheduler planned for one
// kernel, kept as source (tools/tuning/freeze.py writes it from Halide's
// `-e schedule` output) and built as an autoscheduler plugin that applies
// those directives instead of searching. The generator loads it as it loads
// Adams2019 (`-p <plugin> autoscheduler=OnnxpoolFrozen`), so the pipeline it
// schedules is exactly the one the autoscheduler saw (no hand directive,
// ScheduleKnobs::autoscheduled), the generator executable is the same
// whatever the tables hold, and a build runs no search: building twice gives
// the same kernels.
#pragma once

#include <cctype>
#include <string>

#include "Halide.h"

namespace onnxpool::gen {

// The autoscheduler name every frozen schedule registers: a generator run
// loads one of them at a time.
constexpr char kFrozenScheduler[] = "OnnxpoolFrozen";

// pipeline.get_func(index), if its name spelled as a C++ identifier (as
// `-e schedule` names its variables) is `expected`: a change to the
// algorithm since the schedule was frozen fails the build here instead of
// scheduling the wrong Func.
inline Halide::Func frozen_func(Halide::Pipeline pipeline, int index, const std::string& expected) {
  Halide::Func f = pipeline.get_func(index);
  std::string name = f.name();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
  }
  if (name != expected) {
    throw Halide::CompileError("onnxpool frozen schedule: Func " + std::to_string(index) + " of the pipeline is '" +
                               f.name() + "', not '" + expected +
                               "': the algorithm changed since it was frozen; tune the kernel again");
  }
  return f;
}

// Registers `apply` as the OnnxpoolFrozen autoscheduler when the plugin is
// loaded.
struct FrozenScheduleRegistration {
  // The Pipeline by value: a handle, whose get_func is not const.
  using Apply = void (*)(Halide::Pipeline pipeline, const Halide::Target& target);
  explicit FrozenScheduleRegistration(Apply apply, const char* source) {
    Halide::Pipeline::add_autoscheduler(
        kFrozenScheduler, [apply, source](const Halide::Pipeline& pipeline, const Halide::Target& target,
                                          const Halide::AutoschedulerParams& params,
                                          Halide::AutoSchedulerResults* results) {
          apply(pipeline, target);
          if (results != nullptr) {
            results->target = target;
            results->autoscheduler_params = params;
            results->schedule_source = source;
          }
        });
  }
};

}  // namespace onnxpool::gen

// Opens the frozen schedule's body: the statements `-e schedule` wrote, with
// `pipeline` and `target` in scope. SOURCE names the file, for the
// generator's `-e schedule` output of a frozen kernel.
#define ONNXPOOL_FROZEN_SCHEDULE(SOURCE)                                                         \
  static void onnxpool_apply_frozen_schedule(::Halide::Pipeline pipeline,                        \
                                             const ::Halide::Target& target);                    \
  static const ::onnxpool::gen::FrozenScheduleRegistration onnxpool_frozen_schedule_registration{ \
      onnxpool_apply_frozen_schedule, "// frozen schedule: " SOURCE "\n"};                      \
  static void onnxpool_apply_frozen_schedule(::Halide::Pipeline pipeline,                        \
                                             [[maybe_unused]] const ::Halide::Target& target)
