// Lookup of the ahead-of-time kernels compiled into this library.
#pragma once

#include "onnxpool/attributes.h"
#include "onnxpool/tensor.h"

struct halide_filter_metadata_t;

namespace onnxpool::detail {

enum class KernelVariant { kPlain, kWithIndices };

struct KernelEntry {
  PoolOp op;
  ElementType type;
  int spatial_rank;
  KernelVariant variant;
  int (*run)(void** args);  // Halide's argv entry point
  const halide_filter_metadata_t* (*metadata)();
};

// nullptr when the library has no such kernel.
const KernelEntry* find_kernel(PoolOp op, ElementType type, int spatial_rank, KernelVariant variant);

// The kernel table as an indexable list, for per-kernel caches.
size_t kernel_count();
const KernelEntry& kernel_at(size_t index);
size_t kernel_index(const KernelEntry& kernel);

}  // namespace onnxpool::detail
