#include "printable.h"

#include <cstdio>

namespace onnxpool_runner {

namespace {

// Length of the UTF-8 sequence starting at text[pos], or 0 if none starts there.
size_t utf8_sequence_length(const std::string& text, size_t pos) {
  const auto lead = static_cast<unsigned char>(text[pos]);
  size_t length = 0;
  if (lead >= 0xc2 && lead <= 0xdf) length = 2;
  else if (lead >= 0xe0 && lead <= 0xef) length = 3;
  else if (lead >= 0xf0 && lead <= 0xf4) length = 4;
  else return 0;
  if (text.size() - pos < length) return 0;
  for (size_t i = 1; i < length; ++i) {
    const auto continuation = static_cast<unsigned char>(text[pos + i]);
    if (continuation < 0x80 || continuation > 0xbf) return 0;
  }
  return length;
}

}  // namespace

std::string printable_line(const std::string& text) {
  std::string line;
  size_t pos = 0;
  while (pos < text.size()) {
    const auto byte = static_cast<unsigned char>(text[pos]);
    if (byte >= 0x20 && byte < 0x7f) {
      line += text[pos++];
      continue;
    }
    const size_t length = byte >= 0x80 ? utf8_sequence_length(text, pos) : 0;
    if (length > 0) {
      line.append(text, pos, length);
      pos += length;
      continue;
    }
    char escaped[5];
    std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
    line += escaped;
    ++pos;
  }
  return line;
}

}  // namespace onnxpool_runner
