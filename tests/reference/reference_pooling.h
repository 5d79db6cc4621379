// Reference ONNX opset-22 pooling: one plain loop over every output position
// and every tap, written from the spec (docs/semantics.md), never from
// onnx.reference. Slow on purpose; only meant for small test tensors.
#pragma once

#include <cstdint>

#include "reference/host_tensor.h"
#include "reference/pool_geometry.h"

namespace onnxpool_test {

struct MaxPoolResult {
  HostTensor Y;        // X's element type
  HostTensor Indices;  // int64, same shape as Y
};

// NaN propagates (Indices at the window's first NaN); otherwise ties go to the
// first maximum in row-major window order, whatever storage_order says (it
// only changes how the index is written). A window with no tap inside the
// input gives the type's lowest value and index -1.
MaxPoolResult reference_max_pool(const PoolSpec& spec, const HostTensor& X);

// The sum-based operators return float64 tensors: the exact-as-double answer
// that a test compares against with the tolerance its type deserves (use
// HostTensor::converted_to for the correctly rounded value in X's type).
//
// count_include_pad = 0 divides by the taps inside the input (a window without
// any gives NaN, 0/0); = 1 by the taps inside [-pad_begin, in + pad_end).
HostTensor reference_average_pool(const PoolSpec& spec, const HostTensor& X);
// (sum over taps inside the input of |x|^p)^(1/p); partial windows are not rescaled.
HostTensor reference_lp_pool(const PoolSpec& spec, const HostTensor& X);

// Global operators: reduce every spatial axis of an [N, C, D1, ...] tensor of
// any rank >= 3 to [N, C, 1, ..., 1].
HostTensor reference_global_max_pool(const HostTensor& X);  // X's type, NaN propagates
HostTensor reference_global_average_pool(const HostTensor& X);
HostTensor reference_global_lp_pool(const HostTensor& X, int64_t p);

}  // namespace onnxpool_test
