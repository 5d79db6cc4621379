// Everything the runtime tells the Halide runtime: where errors go and which
// parallel-for runs its parallel loops (CPU variants: cpu_dispatch.h).
#pragma once

#include <mutex>
#include <string>

#include "platform/scratch_allocator.h"

namespace onnxpool::detail {

// Passed as Halide's user_context on every call, so each call collects its
// own error text even when many threads call at once.
struct CallContext {
  // Tasks of one parallel loop share the context, and several can fail at
  // once (each refused its scratch): their messages append under the lock.
  std::mutex mutex;
  std::string error;
  // The call's scratch blocks (scratch_allocator.h): the enclosing public
  // call's pool, or one of its own.
  ScratchScope scratch;
};

// Installs the handlers once; cheap to call on every entry.
void ensure_halide_configured();

}  // namespace onnxpool::detail
