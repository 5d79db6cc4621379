// The input every implementation of a case reads, and the expected output,
// each made once per case: Google Benchmark calls a benchmark function several
// times (run-length estimation, every repetition), and S2 is 100 MB.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "aligned_buffer.h"
#include "pool_node.h"
#include "reference_pool.h"
#include "shapes.h"

namespace onnxpool_bench {

// Deterministic pseudo-random NCHW values in [-1, 1); no NaN, no infinities.
// One input per case id, shared by every operator measured on that case.
const AlignedBuffer<float>& test_input(const PoolCase& pool_case);

// reference_pool(op, pool_case, test_input(pool_case)).
const PoolResult& expected_output(const PoolOpSpec& op, const PoolCase& pool_case);

// The same for a case string's node, named by `id` (its string): the values
// are those test_input(PoolCase) would make for as many elements.
const AlignedBuffer<float>& test_input(const std::string& id, int64_t elements);
// reference_pool_node(node, test_input(id, node.input_elements())).
const std::vector<float>& expected_node_output(const PoolNode& node, const std::string& id);

// Empty when got == want element for element (pooling a max is exact, so no
// tolerance); otherwise a message naming the first differing element.
std::string first_mismatch(const char* what, const float* got, const float* want, size_t count);
std::string first_mismatch(const char* what, const int64_t* got, const int64_t* want, size_t count);

// The same with a tolerance, for sums (average, Lp), whose float rounding
// depends on the order each implementation adds in: an element passes when
// |got - want| <= abs_tolerance + rel_tolerance * |want|. A NaN never passes.
std::string first_mismatch_within(const char* what, const float* got, const float* want,
                                  size_t count, double rel_tolerance, double abs_tolerance);

}  // namespace onnxpool_bench
