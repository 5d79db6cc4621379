// The allocator behind the kernels' scratch buffers (halide_malloc): blocks
// are reused by the thread that freed them (scratch_allocator.cpp says why).
#pragma once

namespace onnxpool::detail {

// Makes halide_malloc/halide_free use the per-thread cache. Call once,
// before the first kernel runs.
void install_scratch_allocator();

// Tests: the next `count` scratch requests fail as a failed malloc does (a
// kernel then returns Halide's out-of-memory error); what is left of them.
void refuse_scratch_requests_for_testing(int count);
int scratch_refusals_left();

}  // namespace onnxpool::detail
