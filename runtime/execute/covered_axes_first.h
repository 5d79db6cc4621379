// Runs a call whose window covers its trailing spatial axes whole
// (plan/covered_axes.h): the global kernel reduces each trailing plane into
// a scratch block of the call's pool, then the windowed kernel of the
// leading axes pools those values into Y. Y is untouched until the second
// launch, and that launch's scratch is refused, if at all, before its first
// task writes.
#pragma once

#include "execute/kernel_launch.h"
#include "onnxpool/status.h"
#include "onnxpool/tensor.h"

namespace onnxpool::detail {

// `reduce` and `window` are planned launches with their geometries (reduce:
// one value per trailing plane; window: the leading axes over those values)
// and without tensors.
Status run_covered_axes_first(const KernelCall& reduce, const KernelCall& window, const TensorView& X,
                              const TensorView& Y);

}  // namespace onnxpool::detail
