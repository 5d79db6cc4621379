#include "support/fault_nodes.h"

#include <cmath>
#include <utility>

#include "support/maxpool_check.h"
#include "support/pool_check.h"
#include "support/random.h"
#include "support/test_settings.h"
#include "support/value_fills.h"

namespace onnxpool_test {

using onnxpool::PoolOp;

const std::vector<FaultNode>& separable_2d_fault_nodes() {
  static const std::vector<FaultNode> nodes{
      {"MaxPool float32 2D", PoolOp::kMaxPool, ElementType::kFloat32, {1, 16, 131, 131}, {3, 3}, {2, 2}, {1, 1, 1, 1}},
      {"MaxPool float32 2D Indices", PoolOp::kMaxPool, ElementType::kFloat32, {1, 16, 131, 131}, {3, 3}, {2, 2},
       {1, 1, 1, 1}, true},
      {"AveragePool float32 2D", PoolOp::kAveragePool, ElementType::kFloat32, {1, 16, 131, 131}, {3, 3}, {2, 2},
       {1, 1, 1, 1}},
      {"LpPool float32 2D", PoolOp::kLpPool, ElementType::kFloat32, {1, 16, 131, 131}, {3, 3}, {2, 2}, {1, 1, 1, 1}},
  };
  return nodes;
}

FaultNodeCase make_fault_node_case(const FaultNode& node, uint64_t stream, int scale_exponent) {
  Random random(derive_seed(test_seed(), stream, 0));
  HostTensor X(node.type, node.shape);
  PoolSpec spec;
  spec.kernel_shape = node.kernel;
  spec.strides = node.strides;
  spec.pads = node.pads;
  spec.p = node.op == PoolOp::kLpPool || node.op == PoolOp::kGlobalLpPool ? 2 : 0;
  FaultNodeCase c;
  c.op = node.op;
  if (node.op == PoolOp::kMaxPool || node.op == PoolOp::kGlobalMaxPool) {
    fill_with_ties(random, &X, 0.01);
  } else {
    for (int64_t i = 0; i < X.size(); ++i) {
      const double magnitude = std::ldexp(static_cast<double>(random.between(32, 96)), scale_exponent - 6);
      X.set(i, random.chance(0.5) ? magnitude : -magnitude);
    }
  }
  if (node.op == PoolOp::kMaxPool) {
    c.max_case = make_max_pool_case(spec, std::move(X), node.with_indices);
  } else {
    c.pool_case = make_pool_case(node.op, spec, std::move(X));
  }
  return c;
}

const onnxpool::Attributes& FaultNodeCase::attributes() const {
  return op == PoolOp::kMaxPool ? max_case.attributes : pool_case.attributes;
}

const HostTensor& FaultNodeCase::X() const { return op == PoolOp::kMaxPool ? max_case.X : pool_case.X; }

testing::AssertionResult FaultNodeCase::matches_reference() const {
  return op == PoolOp::kMaxPool ? library_matches_reference(max_case) : pool_matches_reference(pool_case);
}

}  // namespace onnxpool_test
