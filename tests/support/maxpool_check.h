// The one check every MaxPool test relies on: the library, driven the way an
// ONNX runtime drives it, against the reference.
#pragma once

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "onnxpool/status.h"
#include "reference/reference_pooling.h"
#include "support/batch_outcome.h"
#include "support/maxpool_cases.h"

namespace onnxpool_test {

// Parses the attributes, checks infer_output_shape and resolve_pads against
// the reference geometry, runs max_pool, and compares Y bit for bit (any NaN
// equals any NaN) and Indices exactly. Also checks that X is left unchanged.
// Safe to call from several threads at once. `expected`, when given, is the
// reference's result for the case, computed earlier (the tuning runner keeps
// it on disk for its large nodes).
testing::AssertionResult library_matches_reference(const MaxPoolCase& c, const MaxPoolResult* expected = nullptr);

// Runs the case through the library only (parse, infer_output_shape,
// max_pool), for tests that state the expected output literally. Indices is
// left empty when the case does not ask for it.
onnxpool::Status library_max_pool(const MaxPoolCase& c, MaxPoolResult* out);

// Case `index` of `stream` in run_random_max_pool_cases: rebuilds any case a
// failure message names.
MaxPoolCase batch_case(uint64_t stream, int index, const std::vector<ElementType>& types,
                       const std::vector<int>& spatial_ranks);

// Runs cases 0 .. count-1 of `stream` (see derive_seed), each with a type and
// spatial rank drawn from the lists. Makes no gtest assertions, so threads
// may use it.
BatchOutcome run_random_max_pool_cases(uint64_t stream, int count, const std::vector<ElementType>& types,
                                       const std::vector<int>& spatial_ranks);

// Every element type MaxPool takes.
const std::vector<ElementType>& max_pool_types();

}  // namespace onnxpool_test
