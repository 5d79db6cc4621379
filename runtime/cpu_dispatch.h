// Which compiled target runs: the best one this CPU supports within the
// limit set by onnxpool::set_cpu_variant_limit, chosen on every call.
#pragma once

namespace onnxpool::detail {

// Index into the kernel's per-target entry points; -1 when this CPU runs none.
int pick_target();

}  // namespace onnxpool::detail
