// onnxpool on a case string's node (case_string.h): any operator, rank,
// element type and attribute, through the public API.
#pragma once

#include <memory>

#include "case_string.h"
#include "pool_runner.h"

namespace onnxpool_bench {

// The input holds deterministic pseudo-random values of the case's type
// (floats in [-1, 1), every byte value for int8/uint8). The runner's outputs
// are not converted for checking (output_nchw() is empty): the cases no peer
// takes are checked by onnxpool's own test suite, not here.
//
// How the runner calls onnxpool: every call through the one-shot entry point
// (kOneShot), or through a PoolOperator created once (kCreated), as a
// runtime that runs the node many times does and as the peers' rows set up
// their primitives once.
enum class CaseCall { kOneShot, kCreated };
std::unique_ptr<PoolRunner> make_onnxpool_case_pool(const CaseSpec& spec, bool with_indices, int threads,
                                                    CaseCall call = CaseCall::kOneShot);

}  // namespace onnxpool_bench
