// The byte every library call's outputs are pre-filled with, so a test can
// tell which bytes a call wrote (and that a refused call wrote none).
#pragma once

#include <cstddef>
#include <cstdint>

#include "reference/host_tensor.h"

namespace onnxpool_test {

constexpr uint8_t kUnwrittenByte = 0xA5;

// How many bytes of `t` differ from kUnwrittenByte.
inline size_t bytes_written(const HostTensor& t) {
  const uint8_t* bytes = static_cast<const uint8_t*>(t.data());
  size_t written = 0;
  for (size_t i = 0; i < t.byte_size(); ++i) written += bytes[i] != kUnwrittenByte ? 1 : 0;
  return written;
}

}  // namespace onnxpool_test
