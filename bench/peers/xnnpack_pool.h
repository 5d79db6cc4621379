// XNNPACK (Debian libxnnpack-dev) as a MaxPool peer. XNNPACK only has NHWC.
#pragma once

#include <memory>

#include "../pool_runner.h"
#include "../shapes.h"

namespace onnxpool_bench {

// max_pooling2d_nhwc_f32 on a pthreadpool of `threads` threads (the caller
// counts as one). The input is transposed to NHWC and the operator created and
// set up here, outside the timed run().
std::unique_ptr<PoolRunner> make_xnnpack_max_pool(const PoolCase& pool_case, int threads,
                                                  const float* input_nchw);

}  // namespace onnxpool_bench
