// A PoolSpec (the reference's view of a node) as the onnxpool::Attributes an
// ONNX runtime would hand over, for any of the six operators.
#pragma once

#include "onnxpool/attributes.h"
#include "reference/pool_geometry.h"

namespace onnxpool_test {

bool is_global_pool(onnxpool::PoolOp op);

// Windowed operators get kernel_shape, strides, dilations, pads (absent
// lists stay absent), auto_pad and ceil_mode; then MaxPool storage_order,
// AveragePool count_include_pad, LpPool p. The global operators get nothing
// but GlobalLpPool's p. Scalars at their ONNX default are left out unless
// `state_defaults`.
onnxpool::Attributes onnx_attributes(onnxpool::PoolOp op, const PoolSpec& spec, bool state_defaults = false);

}  // namespace onnxpool_test
