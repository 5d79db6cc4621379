// GPU memory the kernels ask the driver for, seen by the runtime: Halide's
// OpenCL and CUDA runtimes look their driver entry points up by name, and
// the runtime hands back its own clCreateBuffer and cuMemAlloc, which pass
// every request on unless a test asked for refusals. That is how a refused
// device allocation (a full GPU) is made to happen on demand, on PoCL in CI
// as on an NVIDIA GPU, without a driver of our own.
#pragma once

#include <cstdint>

namespace onnxpool::detail {

// The test build's hook (ONNXPOOL_TEST_HOOKS); the installed library lets
// Halide find the drivers' entry points itself.
#ifdef ONNXPOOL_TEST_HOOKS
// Puts the lookup in front of Halide's. Call once, before any GPU kernel
// runs (ensure_halide_configured does): Halide reads each entry point once.
void watch_device_allocations();

// Tests: after the next `passes` device allocations, `count` fail as a full
// device fails them (CL_MEM_OBJECT_ALLOCATION_FAILURE,
// CUDA_ERROR_OUT_OF_MEMORY); count 0 stops refusing. How many refusals are
// left, and how many allocations the drivers were asked for in all.
void refuse_device_allocations_for_testing(int count, int passes = 0);
int device_refusals_left();
int64_t device_allocations_asked();
#endif

}  // namespace onnxpool::detail
