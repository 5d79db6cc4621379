// XNNPACK (Debian libxnnpack-dev, a 2022 snapshot) as a peer. Its operators are
// NHWC, except one NCW global average pooling meant for sparse inference.
//   MaxPool, GlobalMaxPool  max_pooling2d_nhwc_f32 (global: kernel = the plane),
//                           with pads and dilations
//   AveragePool             average_pooling2d_nhwc_f32, no dilations; pads are never
//                           counted (count_include_pad = 0, or 1 on a node without pads)
//   GlobalAveragePool       global_average_pooling_nwc_f32 (NHWC),
//                           global_average_pooling_ncw_f32 (NCHW)
//   LpPool, GlobalLpPool    none
// Windowed pooling is 2D: a 1D node runs with a unit height, a 3D one not at
// all; the global operators take any rank (the plane's axes flattened).
#pragma once

#include <memory>
#include <string>

#include "../pool_node.h"
#include "../pool_runner.h"
#include "../shapes.h"

namespace onnxpool_bench {

enum class XnnpackLayout { kNhwc, kNchw };

// "nhwc" or "nchw": the suffix of the xnnpack_<layout> impl token.
const char* xnnpack_layout_name(XnnpackLayout layout);

// Whether XNNPACK has `op` in `layout` (see above).
bool xnnpack_has(const PoolOpSpec& op, XnnpackLayout layout);

// The operator on a pthreadpool of `threads` threads (the caller counts as
// one). The input is transposed to `layout` and the operator created and set
// up here, outside the timed run().
std::unique_ptr<PoolRunner> make_xnnpack_pool(const PoolOpSpec& op, const PoolCase& pool_case,
                                              XnnpackLayout layout, int threads,
                                              const float* input_nchw);

// Why XNNPACK cannot express `node` in `layout` (no such operator, 3D windows,
// a dilated average, count_include_pad with pads); empty when it can.
std::string xnnpack_unsupported(const PoolNode& node, XnnpackLayout layout);

// The same for any node: ceil_mode as extra bottom/right padding, 1D as 2D
// with a unit height. A node it cannot express gets a runner whose error()
// says why (xnnpack_unsupported).
std::unique_ptr<PoolRunner> make_xnnpack_pool(const PoolNode& node, XnnpackLayout layout, int threads,
                                              const float* input_nchw);

}  // namespace onnxpool_bench
