// Registering the benchmarks of bench/pool_bench.cpp: onnxpool, each C++ peer
// that has the operator, and the bandwidth floor.
#pragma once

#include "pool_node.h"
#include "shapes.h"

namespace onnxpool_bench {

// Every case of the suite (shapes.h), then the per-call overhead row.
void register_suite();

// One case: onnxpool (and onnxpool_indices for MaxPool), each peer that has
// `op`, and the floor. `op` and `pc` must outlive the benchmark run.
void register_case(const PoolOpSpec& op, const PoolCase& pc);

// Registers peer_rows(node) (peers/peer_rows.h; float32) under `name_case`'s id, each checked
// against reference_pool_node before it is timed. `node` and `name_case` must
// outlive the benchmark run.
void register_node_peers(const PoolNode& node, const PoolCase& name_case);

}  // namespace onnxpool_bench
