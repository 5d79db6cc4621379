// Shape-independent rules for PoolAttributes, shared by parsing and by every
// operator entry point.
#pragma once

#include "onnxpool/attributes.h"
#include "onnxpool/status.h"

namespace onnxpool::detail {

// GlobalMaxPool, GlobalAveragePool, GlobalLpPool: one window per whole plane.
bool is_global_op(PoolOp op);

Status validate_attributes(const PoolAttributes& attributes);

}  // namespace onnxpool::detail
