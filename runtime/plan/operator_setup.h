// What every operator entry point does before its kernel runs: check the
// attributes belong to it, validate X, the geometry and Y, and find the kernel.
#pragma once

#include "dispatch/kernel_registry.h"
#include "onnxpool/attributes.h"
#include "onnxpool/status.h"
#include "onnxpool/tensor.h"
#include "plan/window_geometry.h"

namespace onnxpool::detail {

// Validates everything about one call but the kernel choice; fills
// `geometry`. Without Y (an operator planned before it sees its tensors),
// X's data pointer is not checked.
Status check_operator_call(PoolOp op, const PoolAttributes& attributes, const TensorView& X, const TensorView* Y,
                           WindowGeometry* geometry);

// The kernel for X's type and the geometry's rank (global operators: the
// flattened kernel), or a status saying what is supported.
Status find_operator_kernel(PoolOp op, const TensorView& X, const WindowGeometry& geometry, KernelVariant variant,
                            const KernelEntry** kernel);

}  // namespace onnxpool::detail
