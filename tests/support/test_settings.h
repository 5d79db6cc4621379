// Run-wide knobs read from the environment, so that CI, qemu runs and bug
// hunts can change them without a rebuild.
#pragma once

#include <cstdint>

namespace onnxpool_test {

// ONNXPOOL_TEST_SEED, or a fixed default so that runs are reproducible.
// Printed to stdout the first time it is asked for in a process.
uint64_t test_seed();

// ONNXPOOL_TEST_SCALE (a positive number, default 1): multiplies every random
// case count, e.g. 0.25 under qemu or 20 for a long bug hunt.
double test_scale();

// base_count * test_scale(), at least 1.
int scaled_case_count(int base_count);

}  // namespace onnxpool_test
