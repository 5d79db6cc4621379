// Which backend runs a call, and which compiled target of it.
#pragma once

#include "onnxpool/pooling.h"
#include "onnxpool/tensor.h"

namespace onnxpool::detail {

// The backend for a call whose tensors live on `device`: CUDA for CUDA
// device tensors, otherwise the one set_backend chose.
Backend backend_for(Device device);

// Index into a kernel's per-target entry points for `backend`; -1 when this
// build or this CPU has none.
int pick_target(Backend backend);

}  // namespace onnxpool::detail
