// Which compiled target runs: the best one this CPU supports within the
// limit set by onnxpool::set_cpu_variant_limit, chosen on every call.
#pragma once

#include <cstddef>
#include <cstdint>

#include "onnxpool/pooling.h"

namespace onnxpool::detail {

// Index into the kernel's per-target entry points of the best CPU target;
// -1 when this CPU runs none.
int pick_cpu_target();

// Whether CPU target `target` may run: this CPU has its features and it is
// within set_cpu_variant_limit.
bool cpu_target_allowed(size_t target);

// The same for every target at once: bit t set when target t (< 32) may run.
uint32_t allowed_cpu_targets();

// The variants' order: higher runs more instructions; kNative is above
// every one, 0 for a value outside the enum.
int cpu_variant_rank(CpuVariant variant);

// Whether this CPU has the features `variant` needs.
bool host_supports(CpuVariant variant);

}  // namespace onnxpool::detail
