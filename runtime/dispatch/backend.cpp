#include "dispatch/backend.h"

#include <atomic>
#include <string>

#include "api/call_guard.h"
#include "dispatch/cpu_dispatch.h"
#include "dispatch/kernel_registry.h"

namespace onnxpool::detail {
namespace {

std::atomic<int> g_backend{static_cast<int>(Backend::kCpu)};

bool known(Backend backend) {
  switch (backend) {
    case Backend::kCpu:
    case Backend::kOpenCL:
    case Backend::kCuda: return true;
  }
  return false;
}

}  // namespace

Backend backend_for(Device device) {
  return device == Device::kCuda ? Backend::kCuda : static_cast<Backend>(g_backend.load());
}

int pick_target(Backend backend) {
  if (backend == Backend::kCpu) return pick_cpu_target();
  for (size_t t = 0; t < target_count(); ++t) {
    if (target_info(t).backend == backend && host_supports(target_info(t).cpu_variant)) return static_cast<int>(t);
  }
  return -1;
}

}  // namespace onnxpool::detail

namespace onnxpool {

bool backend_compiled(Backend backend) {
  if (backend == Backend::kCpu) return true;
  for (size_t t = 0; t < detail::target_count(); ++t) {
    if (detail::target_info(t).backend == backend) return true;
  }
  return false;
}

Status set_backend(Backend backend) {
  // Guarded: its messages are built on the heap.
  return detail::guarded_call("set_backend", [&] {
    if (!detail::known(backend)) {
      return Status::invalid_argument("set_backend: unknown backend " + std::to_string(static_cast<int>(backend)));
    }
    if (!backend_compiled(backend)) {
      return Status::unsupported(std::string("set_backend: this build of onnxpool has no ") + backend_name(backend) +
                                 " kernels (ONNXPOOL_GPU_TARGETS)");
    }
    detail::g_backend.store(static_cast<int>(backend));
    return Status::ok();
  });
}

Backend active_backend() { return static_cast<Backend>(detail::g_backend.load()); }

const char* backend_name(Backend backend) {
  switch (backend) {
    case Backend::kCpu: return "cpu";
    case Backend::kOpenCL: return "opencl";
    case Backend::kCuda: return "cuda";
  }
  return "unknown";
}

}  // namespace onnxpool
