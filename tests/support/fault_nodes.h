// The nodes the fault tests call again and again with one resource refused
// at a time (onnxpool_fault_injection_test: scratch blocks;
// onnxpool_heap_fault_test: heap allocations): a node's shape and window,
// and its case.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "onnxpool/attributes.h"
#include "support/maxpool_cases.h"
#include "support/pool_cases.h"

namespace onnxpool_test {

struct FaultNode {
  std::string name;
  onnxpool::PoolOp op;
  ElementType type;
  std::vector<int64_t> shape;
  std::vector<int64_t> kernel, strides, pads;  // none for the global pools
  bool with_indices = false;
  // > 0: the kernels are taken to accept buffers of at most this many
  // bytes, so the call runs in pieces (large_planes.h), the later launches
  // after the first wrote Y.
  int64_t buffer_limit = 0;
};

// The nodes both fault tests start with, in this order: each windowed
// operator's float32 2D separable kernel on 1x16x131x131, 3x3/s2/p1, and
// MaxPool's with Indices.
const std::vector<FaultNode>& separable_2d_fault_nodes();

// A node's case, its input drawn from `stream`: MaxPool and GlobalMaxPool
// inputs with ties (fill_with_ties); the others magnitudes 0.5 to 1.5 times
// 2^scale_exponent with random signs, exact in every float type. At 0,
// LpPool's float32 sums are trusted on every plane, so the call is one
// kernel launch; at -60 their squares underflow and every plane is redone.
// MaxPool's case is max_case, the others' pool_case.
struct FaultNodeCase {
  onnxpool::PoolOp op;
  MaxPoolCase max_case;
  PoolCase pool_case;

  const onnxpool::Attributes& attributes() const;
  const HostTensor& X() const;
  // The case through the library against the reference (the caller sets
  // any kernel buffer limit the node has).
  testing::AssertionResult matches_reference() const;
};
FaultNodeCase make_fault_node_case(const FaultNode& node, uint64_t stream, int scale_exponent = 0);

}  // namespace onnxpool_test
