// Lookup of the ahead-of-time kernels compiled into this library.
#pragma once

#include <cstddef>

#include "onnxpool/attributes.h"
#include "onnxpool/pooling.h"
#include "onnxpool/tensor.h"

struct halide_filter_metadata_t;

namespace onnxpool::detail {

// LpPool and GlobalLpPool (generators/lppool_generator.cpp): kScaled, the
// overflow-proof algorithm; kFloat32Sum, float32 sums for inputs that passed
// kRangeCheck (a per-plane check, registered as LpPool rank 0). kFlatPlane:
// MaxPool's and AveragePool's 2D "same" windows (runtime/plan/flat_plane.h).
// kHalving: MaxPool's and AveragePool's 2D 2x2 stride-2 windows inside the input
// (runtime/plan/halving.h). kLongPlanes: GlobalAveragePool with several
// dependency chains of partial sums per plane (runtime/plan/long_planes.h).
enum class KernelVariant { kPlain, kWithIndices, kScaled, kFloat32Sum, kRangeCheck, kFlatPlane, kHalving, kLongPlanes };

// Targets a kernel is compiled for (ONNXPOOL_ALL_TARGETS), at most.
constexpr int kMaxTargets = 6;

struct TargetInfo {
  Backend backend;
  CpuVariant cpu_variant;  // what its host code needs
};

struct KernelEntry {
  PoolOp op;
  ElementType type;
  int spatial_rank;
  KernelVariant variant;
  int (*run[kMaxTargets])(void** args);  // Halide's argv entry point, per target
  const halide_filter_metadata_t* (*metadata[kMaxTargets])();
  const char* name;  // the generated function's name without its _v<target> suffix
  // Per target, the knobs its generator run was given from the tuning tables
  // (cmake/OnnxpoolTuning.cmake), "name=value ..."; "" for the hand defaults.
  const char* knobs[kMaxTargets];
};

// The compiled targets: CPU ones best first, then GPU ones.
size_t target_count();
const TargetInfo& target_info(size_t target);

// nullptr when the library has no such kernel.
const KernelEntry* find_kernel(PoolOp op, ElementType type, int spatial_rank, KernelVariant variant);

#ifdef ONNXPOOL_TEST_HOOKS
// tools/tune only: points `target`'s entry of `kernel` at another build of
// the same kernel (same arguments, e.g. a tuning candidate loaded from a
// shared object) and returns what it held. Only between calls: a call in
// flight may read either.
struct KernelFunctions {
  int (*run)(void** args);
  const halide_filter_metadata_t* (*metadata)();
};
KernelFunctions replace_kernel_functions(const KernelEntry& kernel, size_t target, KernelFunctions with);
#endif

// The kernel table as an indexable list, for per-kernel caches.
// The CMake options that selected this build's kernels, e.g.
// "-DONNXPOOL_TYPES=float32"; empty for a complete build.
const char* build_selection();

size_t kernel_count();
const KernelEntry& kernel_at(size_t index);
size_t kernel_index(const KernelEntry& kernel);

}  // namespace onnxpool::detail
