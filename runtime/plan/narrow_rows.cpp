#include "plan/narrow_rows.h"

#include "onnxpool/pooling.h"

namespace onnxpool::detail {
namespace {

// Bytes of one natural vector of each CPU variant's targets. x86: AVX-512,
// AVX2, SSE4.1. ARM64 builds have one (baseline, NEON) target, so nothing
// to step down to there.
int vector_bytes(CpuVariant variant) {
  switch (variant) {
    case CpuVariant::kAvx512: return 64;
    case CpuVariant::kAvx2: return 32;
    case CpuVariant::kBaseline:
    case CpuVariant::kNative: return 16;
  }
  return 16;
}

// Bytes per lane of the type the kernel's vector steps are counted in
// (generators/: MaxPool's order keys, as wide as the element, Indices
// kernels at least 32-bit positions; the summing pools' accumulators).
int lane_bytes(const KernelEntry& kernel) {
  const int element = static_cast<int>(element_size(kernel.type));
  switch (kernel.op) {
    case PoolOp::kMaxPool:
      return kernel.variant == KernelVariant::kWithIndices && element < 4 ? 4 : element;
    case PoolOp::kLpPool:
      // The exact sums of float32 and bfloat16 are float64.
      if (kernel.variant == KernelVariant::kPlain &&
          (kernel.type == ElementType::kFloat32 || kernel.type == ElementType::kBFloat16)) {
        return 8;
      }
      return element == 8 ? 8 : 4;
    default:
      return element == 8 ? 8 : 4;
  }
}

}  // namespace

int vector_lanes(const KernelEntry& kernel, size_t target) {
  return vector_bytes(target_info(target).cpu_variant) / lane_bytes(kernel);
}

bool steps_along_output_rows(const KernelEntry& kernel) {
  return kernel.spatial_rank > 0 && kernel.variant != KernelVariant::kFlatPlane;
}

int cpu_target_for_rows(const KernelEntry& kernel, int64_t row_width, int best, uint32_t allowed) {
  int chosen = best;
  // CPU targets come best (widest) first; take the first that fits.
  for (size_t t = static_cast<size_t>(best); t < target_count() && t < 32; ++t) {
    if ((allowed >> t & 1u) == 0 || kernel.run[t] == nullptr) continue;
    chosen = static_cast<int>(t);
    if (vector_lanes(kernel, t) <= row_width) break;
  }
  return chosen;
}

}  // namespace onnxpool::detail
