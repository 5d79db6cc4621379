// What api_fuzzer asserts about one call (api_case.h): the library refuses a
// bad call with a status naming the culprit and writes nothing, accepts
// exactly the nodes the tests' reference geometry accepts, never writes
// outside Y and Indices (guard bytes on both sides), never changes X, and
// computes what the tests' plain reference computes: bit for bit for the
// max operators and Indices, within the conformance tolerances otherwise.
// A windowed call also costs no more window taps than a bound set by its
// taps inside X (tests/support/window_cost.h), however large kernel_shape
// and pads are: the runtime's count of the taps its kernels evaluate, not
// a clock, so that the check holds under a sanitizer and a busy machine.
#pragma once

#include <cstdint>
#include <string>

#include "api_case.h"

namespace onnxpool_fuzz {

// How far the checked calls got, for the campaign's figures.
struct CheckCounts {
  uint64_t cases = 0;
  uint64_t refused_by_parse = 0;
  uint64_t refused_by_shape = 0;   // infer_output_shape: invalid_argument
  uint64_t unsupported_limit = 0;   // infer_output_shape: a documented limit (docs/semantics.md)
  uint64_t too_large_to_run = 0;   // valid, but X or Y too big here
  uint64_t ran_cost_only = 0;      // ran, too costly for the plain reference: guards and cost checked
  uint64_t refused_call = 0;       // the call itself refused (a mistake, a type)
  uint64_t ran_and_matched = 0;
  uint64_t ran_unchecked_values = 0;  // LpPool with p above what the reference keeps exact

  std::string summary() const;
};

// Empty when the call behaved as promised, else what went wrong (with the
// case). Adds to `counts` when given.
std::string check_api_case(const ApiCase& c, CheckCounts* counts = nullptr);

}  // namespace onnxpool_fuzz
