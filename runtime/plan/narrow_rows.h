// Which CPU target runs a separable (rows-then-window) kernel whose output
// rows are narrower than the best target's vector.
//
// The separable kernels step one natural vector along each output row. On a
// row narrower than that vector every step is a masked partial one, which
// the CPU cannot forward to the next stage's loads, and the kernel runs many
// times slower than a narrower vector would (docs/design-decisions.md,
// "Vector step width"). So such calls step down to the widest allowed target
// whose vector fits in a row, or the narrowest one when none fits.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dispatch/kernel_registry.h"

namespace onnxpool::detail {

// True for the kernels that step one vector at a time along each output row:
// the separable ones and the 2x2 halving ones (not the global or flat-plane
// ones, which step along whole planes). A halving kernel's partial vector is
// worse than the separable one's: its stride-2 taps become masked strided
// loads, which LLVM turns into a test and a scalar load per lane.
bool steps_along_output_rows(const KernelEntry& kernel);

// Lanes of one vector step of `kernel` as compiled for CPU target `target`.
int vector_lanes(const KernelEntry& kernel, size_t target);

// The CPU target for `kernel` on output rows `row_width` elements wide,
// starting from `best` (the best allowed one); `best` itself when its vector
// fits, or when no narrower target is allowed (bit t of `allowed`).
int cpu_target_for_rows(const KernelEntry& kernel, int64_t row_width, int best, uint32_t allowed);

}  // namespace onnxpool::detail
