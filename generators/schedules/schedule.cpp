#include "schedule.h"

#include "cpu_schedule.h"
#include "cpu_tiling.h"
#include "flat_plane_cpu_schedule.h"
#include "global_cpu_schedule.h"
#include "halving_cpu_schedule.h"
#include "gpu_schedule.h"

namespace onnxpool::gen {
namespace {

bool is_power_of_two(int n) { return n >= 1 && (n & (n - 1)) == 0; }

// The family's tiling, then each knob that is set in place of its choice.
CpuTiling cpu_tiling(const Halide::Target& target, const Halide::Type& accumulator, const ScheduleKnobs& knobs) {
  CpuTiling tiling;
  switch (target.arch) {
    case Halide::Target::X86: tiling = x86_tiling(target, accumulator); break;
    case Halide::Target::ARM: tiling = arm_tiling(target, accumulator); break;
    default:
      throw Halide::CompileError("onnxpool generators: no CPU schedule for target " + target.to_string() +
                                 " (generators/schedules/schedule.cpp picks one per architecture)");
  }
  if (knobs.vector_multiple > 0) tiling.vector_size = knobs.vector_multiple * target.natural_vector_size(accumulator);
  if (knobs.global_partials > 0) {
    if (!is_power_of_two(knobs.global_partials)) {
      throw Halide::CompileError("onnxpool generators: global_partials=" + std::to_string(knobs.global_partials) +
                                 "; the partials fold in halves, so a power of two is needed");
    }
    tiling.global_lanes = knobs.global_partials;
  }
  if (knobs.unroll_stem >= 0) tiling.unroll_stem = knobs.unroll_stem == 1;
  tiling.unroll_small_planes = knobs.unroll_small_planes;
  return tiling;
}

GpuTiling gpu_tiling(const ScheduleKnobs& knobs) {
  GpuTiling tiling;
  if (knobs.gpu_tile_x > 0) tiling.tile_x = knobs.gpu_tile_x;
  if (knobs.gpu_tile_y > 0) tiling.tile_y = knobs.gpu_tile_y;
  if (knobs.gpu_global_threads > 0) {
    if (!is_power_of_two(knobs.gpu_global_threads)) {
      throw Halide::CompileError("onnxpool generators: gpu_global_threads=" +
                                 std::to_string(knobs.gpu_global_threads) + "; a power of two is needed");
    }
    tiling.global_threads = knobs.gpu_global_threads;
  }
  return tiling;
}

}  // namespace

void schedule_separable_pool(SeparablePool& pool, const Halide::Target& target, const ScheduleKnobs& knobs) {
  if (knobs.autoscheduled) return;
  if (target.has_gpu_feature()) return schedule_separable_pool_gpu(pool, gpu_tiling(knobs));
  schedule_separable_pool_cpu(pool, cpu_tiling(target, pool.accumulator_type, knobs));
}

void schedule_global_pool(GlobalPool& pool, const Halide::Target& target, const ScheduleKnobs& knobs) {
  if (knobs.autoscheduled) return;
  if (target.has_gpu_feature()) return schedule_global_pool_gpu(pool, gpu_tiling(knobs));
  schedule_global_pool_cpu(pool, cpu_tiling(target, pool.accumulator_type, knobs));
}

void schedule_flat_plane_pool(FlatPlanePool& pool, const Halide::Target& target, const ScheduleKnobs& knobs) {
  if (target.has_gpu_feature()) {
    throw Halide::CompileError("onnxpool generators: the flat-plane pools are CPU kernels (kernel_matrix.cmake "
                               "builds them CPU_ONLY); no GPU schedule for " + target.to_string());
  }
  if (knobs.autoscheduled) return;
  schedule_flat_plane_pool_cpu(pool, cpu_tiling(target, pool.accumulator_type, knobs));
}

void schedule_halving_pool(HalvingPool& pool, const Halide::Target& target, const ScheduleKnobs& knobs) {
  if (target.has_gpu_feature()) {
    throw Halide::CompileError("onnxpool generators: the 2x2 stride-2 pools are CPU kernels (kernel_matrix.cmake "
                               "builds them CPU_ONLY); no GPU schedule for " + target.to_string());
  }
  if (knobs.autoscheduled) return;
  schedule_halving_pool_cpu(pool, cpu_tiling(target, pool.accumulator_type, knobs));
}

GlobalBlocking global_blocking(const Halide::Target& target, const Halide::Type& accumulator,
                               const ScheduleKnobs& knobs, int chains) {
  // The partials fold in halves, so their number stays a power of two.
  if (!is_power_of_two(chains)) {
    throw Halide::CompileError("global_blocking: " + std::to_string(chains) + " chains; a power of two is needed");
  }
  if (target.has_gpu_feature()) return GlobalBlocking{gpu_tiling(knobs).global_threads, false};
  return GlobalBlocking{chains * cpu_tiling(target, accumulator, knobs).global_lanes, chains == 1};
}

}  // namespace onnxpool::gen
