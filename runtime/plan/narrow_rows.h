// Which CPU target runs a separable (rows-then-window) kernel whose output
// rows are narrower than the best target's vector.
//
// The separable kernels step one natural vector along each output row. On a
// row narrower than that vector every step is a masked partial one, which
// the CPU cannot forward to the next stage's loads, and the kernel runs many
// times slower than a narrower vector would: MaxPool 1x192x28x28 3x3/s2/p1
// (14-wide output rows) took 294 us on the AVX-512 kernels of an AMD EPYC
// Zen 4 and 39 us with this rule, which sends it to the AVX2 ones
// (bench/results/amd-epyc-zen4-avx512_2026-12-02_narrow-rows.md). So such
// calls step down to the widest allowed target whose vector fits in a row,
// or the narrowest one when none fits.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dispatch/kernel_registry.h"

namespace onnxpool::detail {

// True for the kernels that step one vector at a time along each output row:
// the separable ones and the 2x2 halving ones (not the global or flat-plane
// ones, which step along whole planes). A halving kernel's partial vector is
// worse than the separable one's: its stride-2 taps become masked strided
// loads, which LLVM turns into a test and a scalar load per lane. float16
// MaxPool 1x128x56x56 2x2/s2 (28-wide output rows, 32-lane AVX-512 steps of
// 16-bit keys) took 249 us on the AVX-512 kernel and 42 on the AVX2 one
// (Intel Xeon family 6 model 167, tools/tune.sh, 1 thread).
bool steps_along_output_rows(const KernelEntry& kernel);

// Lanes of one vector step of `kernel` as compiled for CPU target `target`.
int vector_lanes(const KernelEntry& kernel, size_t target);

// The CPU target for `kernel` on output rows `row_width` elements wide,
// starting from `best` (the best allowed one); `best` itself when its vector
// fits, or when no narrower target is allowed (bit t of `allowed`).
int cpu_target_for_rows(const KernelEntry& kernel, int64_t row_width, int best, uint32_t allowed);

}  // namespace onnxpool::detail
