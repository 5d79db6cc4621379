// The public entry points end in a Status, never in an exception: what the
// runtime's own containers throw (std::bad_alloc, when the system refuses a
// host buffer: the argument lists, the geometry, the float16 widening copies)
// ends the call in kInternal, naming the operator. Without this boundary a
// caller that never expects exceptions from a Status API would be taken down
// by one.
#pragma once

#include <exception>
#include <new>
#include <string>

#include "onnxpool/attributes.h"
#include "onnxpool/status.h"
#include "platform/scratch_allocator.h"

namespace onnxpool::detail {

Status out_of_memory(const char* where);
Status unexpected_exception(const char* where, const std::exception& e);

// body() returns a Status; guarded_call returns it, or what it threw as one.
// One scratch pool serves every kernel launch of the call (ScratchScope), so
// a call that launches again finds the blocks its first launch took.
template <class Body>
Status guarded_call(const char* where, Body&& body) noexcept {
  try {
    try {
      const ScratchScope scratch;
      return body();
    } catch (const std::bad_alloc&) {
      return out_of_memory(where);
    } catch (const std::exception& e) {
      return unexpected_exception(where, e);
    } catch (...) {
      return Status::internal(std::string(where) + ": unexpected exception");
    }
  } catch (...) {
    // Building the message itself was refused: a string this short needs
    // no heap (the small-string buffer), so this one cannot throw.
    return Status::internal("out of memory");
  }
}

// Called where the runtime allocates a host buffer of its own. In the test
// build, refuse_host_allocations_for_testing makes the next `count` such
// places throw std::bad_alloc as a refused allocation does; the installed
// library has no hook there.
#ifdef ONNXPOOL_TEST_HOOKS
void note_host_allocation();
void refuse_host_allocations_for_testing(int count);
#else
inline void note_host_allocation() {}
#endif

}  // namespace onnxpool::detail
