#include "schedule.h"

#include "cpu_schedule.h"
#include "cpu_tiling.h"
#include "flat_plane_cpu_schedule.h"
#include "global_cpu_schedule.h"
#include "halving_cpu_schedule.h"
#include "gpu_schedule.h"

namespace onnxpool::gen {
namespace {

CpuTiling cpu_tiling(const Halide::Target& target, const Halide::Type& accumulator) {
  switch (target.arch) {
    case Halide::Target::X86: return x86_tiling(target, accumulator);
    case Halide::Target::ARM: return arm_tiling(target, accumulator);
    default: break;
  }
  throw Halide::CompileError("onnxpool generators: no CPU schedule for target " + target.to_string() +
                              " (generators/schedules/schedule.cpp picks one per architecture)");
}

}  // namespace

void schedule_separable_pool(SeparablePool& pool, const Halide::Target& target) {
  if (target.has_gpu_feature()) return schedule_separable_pool_gpu(pool, target);
  schedule_separable_pool_cpu(pool, cpu_tiling(target, pool.accumulator_type));
}

void schedule_global_pool(GlobalPool& pool, const Halide::Target& target) {
  if (target.has_gpu_feature()) return schedule_global_pool_gpu(pool, target);
  schedule_global_pool_cpu(pool, cpu_tiling(target, pool.accumulator_type));
}

void schedule_flat_plane_pool(FlatPlanePool& pool, const Halide::Target& target) {
  if (target.has_gpu_feature()) {
    throw Halide::CompileError("onnxpool generators: the flat-plane pools are CPU kernels (kernel_matrix.cmake "
                               "builds them CPU_ONLY); no GPU schedule for " + target.to_string());
  }
  schedule_flat_plane_pool_cpu(pool, cpu_tiling(target, pool.accumulator_type));
}

void schedule_halving_pool(HalvingPool& pool, const Halide::Target& target) {
  if (target.has_gpu_feature()) {
    throw Halide::CompileError("onnxpool generators: the 2x2 stride-2 pools are CPU kernels (kernel_matrix.cmake "
                               "builds them CPU_ONLY); no GPU schedule for " + target.to_string());
  }
  schedule_halving_pool_cpu(pool, cpu_tiling(target, pool.accumulator_type));
}

GlobalBlocking global_blocking(const Halide::Target& target, const Halide::Type& accumulator, int chains) {
  // The partials fold in halves, so their number stays a power of two.
  if (chains < 1 || (chains & (chains - 1)) != 0) {
    throw Halide::CompileError("global_blocking: " + std::to_string(chains) + " chains; a power of two is needed");
  }
  if (target.has_gpu_feature()) return GlobalBlocking{gpu_global_lanes(), false};
  return GlobalBlocking{chains * cpu_tiling(target, accumulator).global_lanes, chains == 1};
}

}  // namespace onnxpool::gen
