// The one check every AveragePool, LpPool and global-pool test relies on:
// the library, driven the way an ONNX runtime drives it, against the reference.
#pragma once

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "onnxpool/pooling.h"
#include "support/batch_outcome.h"
#include "support/pool_cases.h"
#include "support/pool_expectation.h"

namespace onnxpool_test {

// Runs `op`'s own entry point (whatever attributes.op says), or
// onnxpool::pool when `through_dispatcher`.
onnxpool::Status call_operator(onnxpool::PoolOp op, const onnxpool::PoolAttributes& attributes,
                               const onnxpool::TensorView& X, const onnxpool::TensorView& Y, bool through_dispatcher);

// Parses the attributes, checks infer_output_shape (and, for the windowed
// operators, resolve_pads) against the reference geometry, runs the
// operator, checks that X is unchanged and that Y matches the reference
// (pool_expectation.h says how closely). Safe to call from several threads.
// `expected`, when given, is expected_pool_result(c), computed earlier.
testing::AssertionResult pool_matches_reference(const PoolCase& c, const PoolExpectation* expected = nullptr);

// Runs the case through the library only (parse, infer_output_shape, the
// operator), into a Y pre-filled with a byte pattern.
onnxpool::Status library_pool(const PoolCase& c, HostTensor* Y);

// Case `index` of `stream` in run_random_pool_cases: rebuilds any case a
// failure message names.
PoolCase pool_batch_case(uint64_t stream, int index, onnxpool::PoolOp op, const std::vector<ElementType>& types,
                         const std::vector<int>& spatial_ranks);

// Runs cases 0 .. count-1 of `stream` for `op`, each with a type and spatial
// rank drawn from the lists. Makes no gtest assertions, so threads may use it.
BatchOutcome run_random_pool_cases(uint64_t stream, int count, onnxpool::PoolOp op,
                                   const std::vector<ElementType>& types, const std::vector<int>& spatial_ranks);

}  // namespace onnxpool_test
