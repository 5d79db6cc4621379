// Makes text read from untrusted files safe to print as one line.
#pragma once

#include <string>

namespace onnxpool_runner {

// Escapes control bytes and bytes that are not valid UTF-8 as \xNN, so a
// corrupt file's names cannot break the one-line-per-case output or make
// log tools treat it as binary. Valid UTF-8 passes through unchanged.
std::string printable_line(const std::string& text);

}  // namespace onnxpool_runner
