// oneDNN (Debian libdnnl-dev) as a peer: its pooling primitive for MaxPool and
// AveragePool (and the global ones, as pooling whose kernel is the whole
// plane), and its reduction primitive for the three global operators.
#pragma once

#include <memory>

#include "../pool_runner.h"
#include "../shapes.h"

namespace onnxpool_bench {

// The layouts worth measuring: ONNX's own nchw, and the two oneDNN is fastest
// in. The comparison that counts is onnxpool in nchw against the best of these.
enum class OnednnLayout { kNchw, kNhwc, kNChw16c };

// "nchw", "nhwc" or "nChw16c": the suffix of the onednn_<layout> impl token.
const char* onednn_layout_name(OnednnLayout layout);

// Whether oneDNN's pooling primitive computes `op` (max and average, windowed
// or global; not Lp).
bool onednn_has_pooling(const PoolOpSpec& op);

// pooling_max, or pooling_avg_exclude_padding / _include_padding as
// kCountIncludePad says, forward_inference, over the case's window, source and
// destination both in `layout`. The input is reordered into `layout` and the
// primitive created here, outside the timed run(). Sets oneDNN's (OpenMP)
// thread count to `threads`.
std::unique_ptr<PoolRunner> make_onednn_pool(const PoolOpSpec& op, const PoolCase& pool_case,
                                             OnednnLayout layout, int threads,
                                             const float* input_nchw);

// The reduction primitive over H and W, for the global operators:
// reduction_max, reduction_mean, reduction_norm_lp_sum (p = kLpP, eps 0: the
// p-th root of the sum of |x|^p). Source and destination in `layout`; set up
// like make_onednn_pool.
std::unique_ptr<PoolRunner> make_onednn_reduction(const PoolOpSpec& op, const PoolCase& pool_case,
                                                  OnednnLayout layout, int threads,
                                                  const float* input_nchw);

}  // namespace onnxpool_bench
