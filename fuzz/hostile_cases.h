// Hand-written hostile calls: the classes of input that crashed or silently
// broke other pooling libraries (huge strides and dilations, pads at least
// as wide as the kernel, windows wider than the input, sizes where float
// rounding or int32 positions break, outputs past INT_MAX elements), and
// every kind of caller mistake. Each is a regression test
// (hostile_cases_test.cpp) and a seed of api_fuzzer's corpus
// (fuzz/corpus/api/<name>, written by onnxpool_fuzz_seeds).
#pragma once

#include <string>
#include <vector>

#include "api_case.h"

namespace onnxpool_fuzz {

// Where a hostile call must end (api_check.h's CheckCounts).
enum class Outcome {
  kRefusedByParse,
  kRefusedByShape,
  kUnsupportedLimit,   // a documented limit: positions or buffers past 2^31
  kValidButTooLarge,  // the shape is checked; X or Y is too big for the fuzzer to run
  kRefusedCall,
  kRunsAndMatches,
  kRunsValuesUnchecked,  // LpPool with p above what the reference keeps exact
  kRunsCostChecked,      // windows too costly for the plain reference: guards and cost checked
};

struct HostileCase {
  std::string name;  // also the corpus file's name
  ApiCase call;
  Outcome outcome;
};

const std::vector<HostileCase>& hostile_cases();

const char* outcome_name(Outcome outcome);

}  // namespace onnxpool_fuzz
