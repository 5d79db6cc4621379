// Which CUDA context the kernels run in: the device's primary context.
//
// Halide's CUDA runtime otherwise creates a context of its own
// (cuCtxCreate), and memory allocated in one context is not usable from
// kernels running in another. Applications that hand onnxpool device
// pointers (cudaMalloc, PyTorch, onnxruntime) allocate them in the primary
// context, which the CUDA runtime API shares; running there too makes those
// pointers valid and orders onnxpool's work after theirs on the default stream.
#pragma once

namespace onnxpool::detail {

// Installs the context handler in Halide's runtime; call once. Does nothing
// in a build without CUDA kernels.
void use_cuda_primary_context();

}  // namespace onnxpool::detail
