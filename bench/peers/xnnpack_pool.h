// XNNPACK (Debian libxnnpack-dev, a 2022 snapshot) as a peer. Its operators are
// NHWC, except one NCW global average pooling meant for sparse inference.
//   MaxPool, GlobalMaxPool  max_pooling2d_nhwc_f32 (global: kernel = the plane)
//   AveragePool             average_pooling2d_nhwc_f32; pads are never counted
//                           (count_include_pad = 0), which is what kCountIncludePad asks
//   GlobalAveragePool       global_average_pooling_nwc_f32 (NHWC),
//                           global_average_pooling_ncw_f32 (NCHW)
//   LpPool, GlobalLpPool    none
#pragma once

#include <memory>

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

}  // namespace onnxpool_bench
