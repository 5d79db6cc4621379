// The bandwidth floor of a case: how fast this machine merely moves the bytes
// the operator must move. A kernel's time reads best as "x times the floor".
#pragma once

#include <cstdint>

#include "shapes.h"

namespace onnxpool_bench {

// Registers two rows for `op` on `pool_case` (see bench_registry.h for names);
// the report takes the faster of the two as the floor:
//   floor_copy  memcpy of the input into scratch, then memset of the output
//   floor_read  a vectorized max over the input, storing nothing; for pooling,
//               which reads far more than it writes, this is usually lower
// Both split their bytes across 1 or 2 threads of a SpinPool, and both report
// the operator's bytes (input plus output_bytes) so their bytes_per_second
// compares directly with the implementations' rows.
void register_bandwidth_floor_benchmarks(const char* op, const PoolCase& pool_case,
                                         int64_t output_bytes);

}  // namespace onnxpool_bench
