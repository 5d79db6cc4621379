#include "peer_rows.h"

#include "onednn_pool.h"
#include "xnnpack_pool.h"

namespace onnxpool_bench {

std::vector<PeerRow> peer_rows(const PoolNode& node) {
  std::vector<PeerRow> rows;
  for (OnednnLayout layout : {OnednnLayout::kNchw, OnednnLayout::kNhwc, OnednnLayout::kNChw16c, OnednnLayout::kNChw8c}) {
    rows.push_back({std::string("onednn_") + onednn_layout_name(layout),
                    [layout](const PoolNode& n, int threads, const float* input) {
                      return make_onednn_pool(n, layout, threads, input);
                    }});
    // nchw only, as in register_case: the other layouts' reductions are oneDNN's reference code.
    if (node.op.global && layout == OnednnLayout::kNchw) {
      rows.push_back({std::string("onednn_reduction_") + onednn_layout_name(layout),
                      [layout](const PoolNode& n, int threads, const float* input) {
                        return make_onednn_reduction(n, layout, threads, input);
                      }});
    }
  }
  for (XnnpackLayout layout : {XnnpackLayout::kNhwc, XnnpackLayout::kNchw}) {
    // xnnpack_nchw exists for global average pooling only: a row elsewhere
    // would only repeat that XNNPACK has no NCHW operator.
    if (layout == XnnpackLayout::kNchw && !xnnpack_has(node.op, layout)) continue;
    rows.push_back({std::string("xnnpack_") + xnnpack_layout_name(layout),
                    [layout](const PoolNode& n, int threads, const float* input) {
                      return make_xnnpack_pool(n, layout, threads, input);
                    }});
  }
  return rows;
}

}  // namespace onnxpool_bench
