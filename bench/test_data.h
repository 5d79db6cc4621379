// The input every implementation of a case reads, and the expected output,
// each made once per case: Google Benchmark calls a benchmark function several
// times (run-length estimation, every repetition), and S2 is 100 MB.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "aligned_buffer.h"
#include "reference_pool.h"
#include "shapes.h"

namespace onnxpool_bench {

// Deterministic pseudo-random NCHW values in [-1, 1); no NaN, no infinities.
const AlignedBuffer<float>& test_input(const PoolCase& pool_case);

// reference_max_pool of test_input(pool_case).
const MaxPoolResult& expected_max_pool(const PoolCase& pool_case);

// Empty when got == want element for element (pooling a max is exact, so no
// tolerance); otherwise a message naming the first differing element.
std::string first_mismatch(const char* what, const float* got, const float* want, size_t count);
std::string first_mismatch(const char* what, const int64_t* got, const int64_t* want, size_t count);

}  // namespace onnxpool_bench
