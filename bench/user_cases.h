// Benchmarks of the cases a user names on the command line as case strings
// (case_string.h) instead of the suite.
#pragma once

#include <string>
#include <vector>

namespace onnxpool_bench {

// Registers each case: a 2D float32 case the C++ peers can express (dilation
// 1, no ceil_mode or auto_pad, pads not counted, p = 2) gets the suite's full
// set of rows, checked against the reference; any other gets onnxpool's rows
// (any rank, type and attribute) and the bandwidth floor of its bytes, and a
// note on stderr that the peers do not take it. False, with *error, if a
// string is malformed or names an invalid node; nothing is registered then.
bool register_user_cases(const std::vector<std::string>& texts, std::string* error);

// Prints the parsed cases as a JSON list, one object per case (case_json),
// for bench/python_peers.py. False, with *error, as register_user_cases.
bool describe_user_cases(const std::vector<std::string>& texts, std::string* error);

}  // namespace onnxpool_bench
