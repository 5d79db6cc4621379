// Which C++ peer rows a case string's node gets: one list, shared by the
// benchmark's registration (pool_bench.cpp) and bench/peers_test.cpp.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "../pool_node.h"
#include "../pool_runner.h"

namespace onnxpool_bench {

// One peer row: its impl token (bench_registry.h) and its runner.
struct PeerRow {
  std::string impl;
  std::function<std::unique_ptr<PoolRunner>(const PoolNode&, int threads, const float* input_nchw)> make;
};

// The rows every float32 node gets, whether or not the peer can express it (a
// runner that cannot says why in error(), so the report shows a reason, not a
// hole): onednn_nchw, onednn_nhwc, onednn_nChw16c, onednn_nChw8c, onednn_reduction_nchw
// (global nodes), xnnpack_nhwc, and xnnpack_nchw (GlobalAveragePool only).
std::vector<PeerRow> peer_rows(const PoolNode& node);

}  // namespace onnxpool_bench
