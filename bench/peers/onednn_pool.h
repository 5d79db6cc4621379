// oneDNN (Debian libdnnl-dev) as a peer: its pooling primitive for MaxPool and
// AveragePool (and the global ones, as pooling whose kernel is the whole
// plane), and its reduction primitive for the three global operators; 1 to 3
// spatial axes, in the layout of that rank (nchw stands for ncw and ncdhw too).
#pragma once

#include <memory>
#include <string>

#include "../pool_node.h"
#include "../pool_runner.h"
#include "../shapes.h"

namespace onnxpool_bench {

// The layouts worth measuring: ONNX's own nchw, and those oneDNN is fastest
// in: nhwc, and channels blocked by 16 (its AVX-512 kernels) or by 8 (its
// AVX2 ones; on each machine the other runs oneDNN's reference code, which is
// checked but not timed). The comparison that counts is onnxpool in nchw
// against the best of these.
enum class OnednnLayout { kNchw, kNhwc, kNChw16c, kNChw8c };

// "nchw", "nhwc", "nChw16c" or "nChw8c": the suffix of the onednn_<layout> impl token,
// whatever the rank (1D and 3D nodes run in ncw / nwc / nCw16c / nCw8c and
// ncdhw / ndhwc / nCdhw16c / nCdhw8c under the same names, so the report's rows stay the same).
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

// The same for any node: strides, asymmetric pads, dilations (pooling_v2_forward,
// only when the node has some), the node's count_include_pad, and ceil_mode as
// extra end padding (PoolNode::floor_mode_pad_end) so that oneDNN's floor
// formula gives ONNX's output extent. A node oneDNN's pooling cannot take
// (Lp, more than 3 spatial axes) gets a runner whose error() says why.
std::unique_ptr<PoolRunner> make_onednn_pool(const PoolNode& node, OnednnLayout layout, int threads,
                                             const float* input_nchw);

// Why make_onednn_pool cannot take `node`; empty when it can.
std::string onednn_pool_unsupported(const PoolNode& node);

// The reduction primitive over H and W, for the global operators:
// reduction_max, reduction_mean, reduction_norm_lp_sum (p = kLpP, eps 0: the
// p-th root of the sum of |x|^p). Source and destination in `layout`; set up
// like make_onednn_pool.
std::unique_ptr<PoolRunner> make_onednn_reduction(const PoolOpSpec& op, const PoolCase& pool_case,
                                                  OnednnLayout layout, int threads,
                                                  const float* input_nchw);

// The same over every spatial axis of a global node of 1 to 3 spatial axes;
// reduction_norm_lp_sum takes the node's p.
std::unique_ptr<PoolRunner> make_onednn_reduction(const PoolNode& node, OnednnLayout layout,
                                                  int threads, const float* input_nchw);

}  // namespace onnxpool_bench
