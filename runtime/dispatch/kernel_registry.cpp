#include "dispatch/kernel_registry.h"

#include "onnxpool_kernel_table.h"

namespace onnxpool::detail {

const KernelEntry* find_kernel(PoolOp op, ElementType type, int spatial_rank, KernelVariant variant) {
  for (const KernelEntry& k : kKernelTable) {
    if (k.op == op && k.type == type && k.spatial_rank == spatial_rank && k.variant == variant) return &k;
  }
  return nullptr;
}

size_t target_count() { return sizeof(kTargets) / sizeof(kTargets[0]); }

const TargetInfo& target_info(size_t target) { return kTargets[target]; }

#ifdef ONNXPOOL_TEST_HOOKS
KernelFunctions replace_kernel_functions(const KernelEntry& kernel, size_t target, KernelFunctions with) {
  KernelEntry& entry = kKernelTable[kernel_index(kernel)];
  const KernelFunctions previous{entry.run[target], entry.metadata[target]};
  entry.run[target] = with.run;
  entry.metadata[target] = with.metadata;
  return previous;
}
#endif

const char* build_selection() { return kBuildSelection; }

size_t kernel_count() { return sizeof(kKernelTable) / sizeof(kKernelTable[0]); }

const KernelEntry& kernel_at(size_t index) { return kKernelTable[index]; }

size_t kernel_index(const KernelEntry& kernel) { return static_cast<size_t>(&kernel - kKernelTable); }

}  // namespace onnxpool::detail
