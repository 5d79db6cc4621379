// The tunable choices of the hand schedules, as one value a generator hands
// to schedule.h. Every knob's default (0, or the flag shown) is the hand
// choice the family's tiling makes (x86_tiling.cpp, arm_tiling.cpp,
// gpu_schedule.cpp), so a kernel generated without knobs is the kernel the
// library had before it was tunable. tools/tune.sh searches these values;
// generators/schedules/tuned/<target>.json records the winners, which
// cmake/OnnxpoolTuning.cmake passes to each kernel's generator run.
#pragma once

#include <string>

#include "Halide.h"

namespace onnxpool::gen {

struct ScheduleKnobs {
  // Lanes of one vector step of the windowed kernels, in natural vectors of
  // the accumulator; 0: the family's choice.
  int vector_multiple = 0;
  // Partial results per plane of the global pools (one dependency chain per
  // natural vector of them), a power of two; 0: the family's choice.
  int global_partials = 0;
  // The copy of the separable loop nest unrolled for the ResNet stem's
  // geometry (cpu_schedule.cpp): -1 the family's choice, 0 off, 1 on.
  int unroll_stem = -1;
  // The copies of the global loop nests unrolled for 7x7 and 14x14 planes
  // (global_cpu_schedule.cpp).
  bool unroll_small_planes = true;
  // GPU thread blocks of the separable pools (x, y) and threads per plane
  // of the global pools; 0: the hand choice (32 x 8, 64).
  int gpu_tile_x = 0, gpu_tile_y = 0, gpu_global_threads = 0;
  // The generator's autoscheduler plans the whole pipeline: the hand
  // schedule adds no directive (Adams2019 refuses Funcs that already have
  // splits, Mullapudi2016 pipelines with specializations).
  bool autoscheduled = false;
  // Test only: the windowed kernels skip each window's last x tap, so the
  // tuning tests can prove that a wrong candidate is rejected.
  bool test_fault = false;
};

// GeneratorParams carrying ScheduleKnobs: every pooling generator derives
// from this instead of Halide::Generator, so every kernel takes the same
// knob names (a knob a pipeline has no use for is accepted and ignored).
template <typename T>
class TunableGenerator : public Halide::Generator<T> {
 public:
  Halide::GeneratorParam<int> vector_multiple{"vector_multiple", 0, 0, 8};
  Halide::GeneratorParam<int> global_partials{"global_partials", 0, 0, 256};
  Halide::GeneratorParam<int> unroll_stem{"unroll_stem", -1, -1, 1};
  Halide::GeneratorParam<bool> unroll_small_planes{"unroll_small_planes", true};
  Halide::GeneratorParam<int> gpu_tile_x{"gpu_tile_x", 0, 0, 1024};
  Halide::GeneratorParam<int> gpu_tile_y{"gpu_tile_y", 0, 0, 1024};
  Halide::GeneratorParam<int> gpu_global_threads{"gpu_global_threads", 0, 0, 1024};
  Halide::GeneratorParam<bool> test_fault{"test_fault", false};

 protected:
  ScheduleKnobs knobs() const {
    ScheduleKnobs k;
    k.vector_multiple = vector_multiple;
    k.global_partials = global_partials;
    k.unroll_stem = unroll_stem;
    k.unroll_small_planes = unroll_small_planes;
    k.gpu_tile_x = gpu_tile_x;
    k.gpu_tile_y = gpu_tile_y;
    k.gpu_global_threads = gpu_global_threads;
    k.autoscheduled = this->using_autoscheduler();
    k.test_fault = test_fault;
    return k;
  }
};

}  // namespace onnxpool::gen
