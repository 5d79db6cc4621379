// The allocator behind the kernels' scratch buffers (halide_malloc): blocks
// are reused by the thread that freed them (scratch_allocator.cpp says why).
#pragma once

namespace onnxpool::detail {

// Makes halide_malloc/halide_free use the per-thread cache. Call once,
// before the first kernel runs.
void install_scratch_allocator();

}  // namespace onnxpool::detail
