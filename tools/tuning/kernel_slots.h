// The tuning runner's hold on the library's kernel table: every (kernel,
// target) slot can be pointed at a candidate build of that kernel, and every
// call through a slot is counted, so the runner knows which kernel a node
// runs (route) and that a candidate it checks or times is the one that ran.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "dispatch/kernel_registry.h"
#include "onnxpool/pooling.h"

namespace onnxpool_tune {

using onnxpool::detail::KernelEntry;
using onnxpool::detail::KernelFunctions;

struct Slot {
  size_t kernel = 0;  // index into the kernel table
  size_t target = 0;
};

// Installs the counting wrappers in every slot that holds a kernel; call
// once, before any pooling call.
void install_counters();

// Calls made through `slot` since the counters were installed.
uint64_t calls(const Slot& slot);
// Every slot with calls, as "name@target" (e.g. onnxpool_maxpool_float32_2d@0).
std::vector<std::string> slots_called();
void reset_counts();

// Points `slot` at `functions` (what the library had: restore_builtin).
void use_candidate(const Slot& slot, KernelFunctions functions);
void restore_builtin(const Slot& slot);

// The slot of kernel `name` on target `target` (an index of the library's
// target table); false when the library has no build of it there.
bool find_slot(const std::string& name, size_t target, Slot* slot, std::string* error);

}  // namespace onnxpool_tune
