// Test cases for AveragePool, LpPool, GlobalMaxPool, GlobalAveragePool and
// GlobalLpPool (MaxPool, with its Indices, has maxpool_cases.h): a node's
// attributes as the reference reads them and as a runtime hands them over,
// plus an input.
#pragma once

#include <string>
#include <vector>

#include "onnxpool/attributes.h"
#include "reference/host_tensor.h"
#include "reference/pool_geometry.h"
#include "support/random.h"

namespace onnxpool_test {

struct PoolCase {
  onnxpool::PoolOp op = onnxpool::PoolOp::kAveragePool;
  PoolSpec spec;                    // the windowed operators; the global ones read only p
  onnxpool::Attributes attributes;  // what PoolAttributes::parse gets
  HostTensor X;
  // The reference runs on X * 2^-scale_exponent and its result is scaled
  // back, so that every |x|^p of the case fits double (see value_fills.h).
  int scale_exponent = 0;
  // Calls onnxpool::pool rather than the operator's own entry point.
  bool through_dispatcher = false;

  // Everything needed to rebuild the case by hand (values too, when few).
  std::string describe() const;
};

// A case with the attributes a runtime would pass for `spec` (defaults left out).
PoolCase make_pool_case(onnxpool::PoolOp op, const PoolSpec& spec, HostTensor X);

// The same for a summing operator (AveragePool, LpPool and their global
// forms), after filling X with fill_for_sum_pool's values for that operator;
// the fill's scale exponent goes into the case.
PoolCase make_filled_sum_pool_case(Random& random, onnxpool::PoolOp op, const PoolSpec& spec, HostTensor X);

// A valid random case. spatial_rank: 1..3 for AveragePool and LpPool; 1..4
// for the global operators (4: a rank-6 X). Global planes range from one
// element to about 1700, odd sizes included.
PoolCase random_pool_case(Random& random, onnxpool::PoolOp op, ElementType type, int spatial_rank);

// Specs for hand-written cases: a window (kernel, strides, pads, ceil_mode),
// an LpPool window, and the p a global LpPool reads (the other global
// operators read nothing).
PoolSpec window_spec(std::vector<int64_t> kernel, std::vector<int64_t> strides, std::vector<int64_t> pads = {},
                     bool ceil_mode = false);
PoolSpec lp_spec(std::vector<int64_t> kernel, std::vector<int64_t> strides, std::vector<int64_t> pads, int64_t p,
                 bool ceil_mode = false);
PoolSpec p_only(int64_t p);

// The five operators these cases are for.
const std::vector<onnxpool::PoolOp>& sum_and_global_ops();

// Row widths where the CPU schedules change course: below, at and just past
// 8/16/32/64 lanes, odd ones in between, and whole numbers of half vectors
// that are not of vectors (24, 56, 100: the rows stage's half-vector steps
// on AVX-512 and AVX2). And the plane heights the tests sweep them with.
const std::vector<int64_t>& schedule_edge_widths();
const std::vector<int64_t>& schedule_edge_heights();

}  // namespace onnxpool_test
