// The nodes a tuning run checks and times: case strings (bench/case_string.h,
// plus ":indices" for MaxPool's second output) turned into the tests' cases,
// so a candidate is judged by the tests' own reference and tolerances.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "aligned_buffer.h"
#include "case_string.h"
#include "reference/host_tensor.h"
#include "reference_cache.h"

namespace onnxpool_tune {

struct TuningNode {
  std::string text;  // as given, ":indices" included
  onnxpool_bench::CaseSpec spec;
  bool with_indices = false;
};

// False, with the reason (the case grammar for a malformed string), when
// `text` is not a valid node.
bool parse_node(const std::string& text, TuningNode* node, std::string* error);

// Runs the node through the library on inputs drawn from `seed` and compares
// it with the reference (for a large node, the one `cache` holds, if any);
// the mismatch (with how to rebuild the case), or nothing.
std::optional<std::string> check_node(const TuningNode& node, uint64_t seed, const ReferenceCache& cache);

// Small nodes for the kernel of `op`, element type, and spatial rank (0 for
// a global kernel): every edge width of the schedules (tests/support's
// schedule_edge_widths), one-element tensors, planes and windows narrower
// than any split factor, odd sizes, each window the schedules specialize.
std::vector<std::string> tiny_nodes(onnxpool::PoolOp op, onnxpool::ElementType type, int spatial_rank,
                                    bool with_indices);

// A node's tensors, allocated and filled once, for timing, as a caller's
// would be: 64-byte aligned (the tests' HostTensor is 16-byte aligned, and
// its split loads cost the 2-thread MaxPool S1 10-15% more time), with views
// made once, so a timed call is the library's alone.
class PreparedNode {
 public:
  explicit PreparedNode(const TuningNode& node);
  onnxpool::Status run();

 private:
  TuningNode node_;
  onnxpool_bench::AlignedBuffer<uint8_t> x_, y_, indices_;
  onnxpool::TensorView x_view_, y_view_, indices_view_;
};

}  // namespace onnxpool_tune
