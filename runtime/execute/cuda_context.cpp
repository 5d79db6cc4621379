#include "execute/cuda_context.h"

#if defined(ONNXPOOL_WITH_CUDA)

#include <HalideRuntime.h>
#include <HalideRuntimeCuda.h>
#include <dlfcn.h>

#include <mutex>
#include <string>

namespace onnxpool::detail {
namespace {

// The three driver calls needed, loaded by name: the library does not link
// libcuda, so it builds and runs where there is no driver.
using CuInit = int (*)(unsigned int flags);
using CuDeviceGet = int (*)(int* device, int ordinal);
using CuDevicePrimaryCtxRetain = int (*)(void** context, int device);

// The CUresult values a machine without a usable GPU gives, in words.
std::string cuda_error(const char* call, int rc) {
  std::string text = std::string("CUDA: ") + call + " failed with CUresult " + std::to_string(rc);
  switch (rc) {
    case 100: return text + " (no CUDA-capable device)";
    case 34: return text + " (libcuda is the toolkit's stub library, not a driver)";
    case 35: return text + " (the driver is older than the CUDA runtime needs)";
    default: return text;
  }
}

struct PrimaryContext {
  void* context = nullptr;
  std::string failure;
};

PrimaryContext retain_primary_context(void* user_context) {
  PrimaryContext result;
  // RTLD_GLOBAL: Halide's runtime looks its CUDA calls up by name in the
  // process, and on its own it opens only "libcuda.so", which a driver
  // install without development links lacks.
  void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  if (library == nullptr) library = dlopen("libcuda.so", RTLD_NOW | RTLD_GLOBAL);
  if (library == nullptr) {
    result.failure = "CUDA driver library not found (libcuda.so.1): no NVIDIA driver on this machine";
    return result;
  }
  const auto cu_init = reinterpret_cast<CuInit>(dlsym(library, "cuInit"));
  const auto cu_device_get = reinterpret_cast<CuDeviceGet>(dlsym(library, "cuDeviceGet"));
  const auto cu_retain = reinterpret_cast<CuDevicePrimaryCtxRetain>(dlsym(library, "cuDevicePrimaryCtxRetain"));
  if (cu_init == nullptr || cu_device_get == nullptr || cu_retain == nullptr) {
    result.failure = "CUDA driver library lacks cuInit, cuDeviceGet or cuDevicePrimaryCtxRetain";
    return result;
  }
  int rc = cu_init(0);
  if (rc != 0) {
    result.failure = cuda_error("cuInit", rc);
    return result;
  }
  // HL_GPU_DEVICE picks the device, as everywhere in Halide; default 0.
  const int ordinal = halide_get_gpu_device(user_context);
  int device = 0;
  rc = cu_device_get(&device, ordinal < 0 ? 0 : ordinal);
  if (rc != 0) {
    result.failure = cuda_error(("cuDeviceGet(" + std::to_string(ordinal) + ")").c_str(), rc);
    return result;
  }
  rc = cu_retain(&result.context, device);
  if (rc != 0) {
    result.context = nullptr;
    result.failure = cuda_error("cuDevicePrimaryCtxRetain", rc);
  }
  return result;
}

int acquire_primary_context(void* user_context, void** context, bool /*create*/) {
  // Retained once for the process and never released: the context outlives
  // every kernel and allocation Halide makes in it.
  static std::once_flag once;
  static PrimaryContext primary;
  std::call_once(once, [user_context] { primary = retain_primary_context(user_context); });
  if (primary.context == nullptr) {
    halide_error(user_context, primary.failure.c_str());
    return halide_error_code_generic_error;
  }
  *context = primary.context;
  return 0;
}

int release_primary_context(void*) { return 0; }

}  // namespace

void use_cuda_primary_context() {
  halide_set_cuda_acquire_context(acquire_primary_context);
  halide_set_cuda_release_context(release_primary_context);
}

}  // namespace onnxpool::detail

#else

namespace onnxpool::detail {

void use_cuda_primary_context() {}

}  // namespace onnxpool::detail

#endif
