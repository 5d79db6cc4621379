#include "pool_node.h"

#include <algorithm>

namespace onnxpool_bench {
namespace {

int64_t product(const std::vector<int64_t>& values) {
  int64_t result = 1;
  for (int64_t v : values) result *= v;
  return result;
}

}  // namespace

int64_t PoolNode::input_elements() const { return product(input); }
int64_t PoolNode::output_elements() const { return product(output); }

bool PoolNode::dilated() const {
  return std::any_of(dilations.begin(), dilations.end(), [](int64_t d) { return d != 1; });
}

bool PoolNode::has_pads() const {
  const auto nonzero = [](int64_t pad) { return pad != 0; };
  return std::any_of(pad_begin.begin(), pad_begin.end(), nonzero) ||
         std::any_of(pad_end.begin(), pad_end.end(), nonzero);
}

int64_t PoolNode::window_extent(size_t axis) const { return (kernel[axis] - 1) * dilations[axis] + 1; }

int64_t PoolNode::floor_mode_pad_end(size_t axis) const {
  // The last window must end inside input + pads; never less than the node's
  // own pad, which count_include_pad counts.
  const int64_t last_window_end = (output[axis + 2] - 1) * strides[axis] + window_extent(axis);
  return std::max(pad_end[axis], last_window_end - input[axis + 2] - pad_begin[axis]);
}

PoolNode pool_node(const PoolOpSpec& op, const PoolCase& pc) {
  PoolNode node;
  node.op = op;
  node.input = {pc.n, pc.c, pc.h, pc.w};
  node.output = {pc.n, pc.c, pc.out_h(), pc.out_w()};
  node.kernel = {pc.kernel_h, pc.kernel_w};
  node.strides = {pc.stride_h, pc.stride_w};
  node.dilations = {1, 1};
  node.pad_begin = {pc.pad_top, pc.pad_left};
  node.pad_end = {pc.pad_bottom, pc.pad_right};
  return node;
}

}  // namespace onnxpool_bench
