// oneDNN (Debian libdnnl-dev) as a MaxPool peer.
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

// pooling_max, forward_inference, source and destination both in `layout`.
// The input is reordered into `layout` and the primitive created here, outside
// the timed run(). Sets oneDNN's (OpenMP) thread count to `threads`.
std::unique_ptr<PoolRunner> make_onednn_max_pool(const PoolCase& pool_case, OnednnLayout layout,
                                                 int threads, const float* input_nchw);

}  // namespace onnxpool_bench
