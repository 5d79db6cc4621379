#include "support/cuda_driver.h"

#include <dlfcn.h>

#include <cstdlib>
#include <string>

namespace onnxpool_cuda {

// The driver entry points used, by their exported names. cuda.h maps the
// plain names of the 64-bit memory calls to these _v2 symbols (the plain
// ones are the 32-bit API of CUDA 3.1 and older), so these are what a program
// compiled against any CUDA since 3.2 calls, and drivers keep exporting them.
// cuEventElapsedTime: the original symbol, which drivers keep for programs
// built before CUDA 12.8 added a _v2 (same arguments); the _v2 only if a
// driver ever drops it.
struct DriverApi {
  int (*cuInit)(unsigned int flags);
  int (*cuDriverGetVersion)(int* version);
  int (*cuGetErrorName)(int result, const char** name);
  int (*cuDeviceGetCount)(int* count);
  int (*cuDeviceGet)(int* device, int ordinal);
  int (*cuDeviceGetName)(char* name, int length, int device);
  int (*cuDeviceGetAttribute)(int* value, int attribute, int device);
  int (*cuDeviceTotalMem_v2)(size_t* bytes, int device);
  int (*cuDevicePrimaryCtxRetain)(void** context, int device);
  int (*cuCtxSetCurrent)(void* context);
  int (*cuCtxSynchronize)();
  int (*cuMemAlloc_v2)(uint64_t* address, size_t bytes);
  int (*cuMemFree_v2)(uint64_t address);
  int (*cuMemcpyHtoD_v2)(uint64_t destination, const void* source, size_t bytes);
  int (*cuMemcpyDtoH_v2)(void* destination, uint64_t source, size_t bytes);
  int (*cuMemcpyDtoD_v2)(uint64_t destination, uint64_t source, size_t bytes);
  int (*cuMemsetD8_v2)(uint64_t destination, unsigned char byte, size_t count);
  int (*cuEventCreate)(void** event, unsigned int flags);
  int (*cuEventDestroy_v2)(void* event);
  int (*cuEventRecord)(void* event, void* stream);
  int (*cuEventSynchronize)(void* event);
  int (*cuEventElapsedTime)(float* milliseconds, void* start, void* end);
};

namespace {

constexpr int kNoDevice = 100;                 // CUDA_ERROR_NO_DEVICE
constexpr int kStubLibrary = 34;               // CUDA_ERROR_STUB_LIBRARY
constexpr int kComputeCapabilityMajor = 75;    // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
constexpr int kComputeCapabilityMinor = 76;    // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR

template <typename Function>
bool load(void* library, const char* name, Function* slot, std::string* missing) {
  *slot = reinterpret_cast<Function>(dlsym(library, name));
  if (*slot == nullptr) *missing += std::string(missing->empty() ? "" : ", ") + name;
  return *slot != nullptr;
}

// The ordinal the library uses too: Halide reads HL_GPU_DEVICE.
int device_ordinal() {
  const char* text = std::getenv("HL_GPU_DEVICE");
  return text != nullptr && *text != '\0' ? std::atoi(text) : 0;
}

// Every function in `api`; false, with the names not found in `missing`, if any is not.
bool load_api(void* library, DriverApi* api, std::string* missing) {
  bool all = true;
  all &= load(library, "cuInit", &api->cuInit, missing);
  all &= load(library, "cuDriverGetVersion", &api->cuDriverGetVersion, missing);
  all &= load(library, "cuGetErrorName", &api->cuGetErrorName, missing);
  all &= load(library, "cuDeviceGetCount", &api->cuDeviceGetCount, missing);
  all &= load(library, "cuDeviceGet", &api->cuDeviceGet, missing);
  all &= load(library, "cuDeviceGetName", &api->cuDeviceGetName, missing);
  all &= load(library, "cuDeviceGetAttribute", &api->cuDeviceGetAttribute, missing);
  all &= load(library, "cuDeviceTotalMem_v2", &api->cuDeviceTotalMem_v2, missing);
  all &= load(library, "cuDevicePrimaryCtxRetain", &api->cuDevicePrimaryCtxRetain, missing);
  all &= load(library, "cuCtxSetCurrent", &api->cuCtxSetCurrent, missing);
  all &= load(library, "cuCtxSynchronize", &api->cuCtxSynchronize, missing);
  all &= load(library, "cuMemAlloc_v2", &api->cuMemAlloc_v2, missing);
  all &= load(library, "cuMemFree_v2", &api->cuMemFree_v2, missing);
  all &= load(library, "cuMemcpyHtoD_v2", &api->cuMemcpyHtoD_v2, missing);
  all &= load(library, "cuMemcpyDtoH_v2", &api->cuMemcpyDtoH_v2, missing);
  all &= load(library, "cuMemcpyDtoD_v2", &api->cuMemcpyDtoD_v2, missing);
  all &= load(library, "cuMemsetD8_v2", &api->cuMemsetD8_v2, missing);
  all &= load(library, "cuEventCreate", &api->cuEventCreate, missing);
  all &= load(library, "cuEventDestroy_v2", &api->cuEventDestroy_v2, missing);
  all &= load(library, "cuEventRecord", &api->cuEventRecord, missing);
  all &= load(library, "cuEventSynchronize", &api->cuEventSynchronize, missing);
  std::string elapsed_missing;
  if (!load(library, "cuEventElapsedTime", &api->cuEventElapsedTime, &elapsed_missing)) {
    all &= load(library, "cuEventElapsedTime_v2", &api->cuEventElapsedTime, missing);
  }
  return all;
}

}  // namespace

CudaDriver& CudaDriver::get() {
  static CudaDriver driver;
  // Each thread that calls get() gets the context; once is enough per thread.
  thread_local bool current = false;
  if (!current && driver.ok()) current = driver.make_current().empty();
  return driver;
}

CudaDriver::CudaDriver() {
  void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    failure_ = std::string("cannot load the CUDA driver library libcuda.so.1 (no NVIDIA driver on this machine?): ") +
               dlerror();
    return;
  }
  // Filled once; the driver's functions never move while the process runs.
  static DriverApi api;
  std::string missing;
  if (!load_api(library, &api, &missing)) {
    failure_ = "the CUDA driver library lacks " + missing;
    return;
  }
  api_ = &api;
  failure_ = check("cuInit", api.cuInit(0));
  if (!failure_.empty()) return;
  int count = 0;
  failure_ = check("cuDeviceGetCount", api.cuDeviceGetCount(&count));
  if (!failure_.empty()) return;
  const int ordinal = device_ordinal();
  if (ordinal < 0 || ordinal >= count) {
    failure_ = "no CUDA device " + std::to_string(ordinal) + " (HL_GPU_DEVICE); the driver sees " +
               std::to_string(count);
    return;
  }
  int device = 0;
  failure_ = check("cuDeviceGet", api.cuDeviceGet(&device, ordinal));
  if (!failure_.empty()) return;
  failure_ = check("cuDevicePrimaryCtxRetain", api.cuDevicePrimaryCtxRetain(&context_, device));
  if (!failure_.empty()) return;

  char name[256] = {};
  int major = 0, minor = 0, version = 0;
  size_t memory = 0;
  api.cuDeviceGetName(name, static_cast<int>(sizeof(name)) - 1, device);
  api.cuDeviceGetAttribute(&major, kComputeCapabilityMajor, device);
  api.cuDeviceGetAttribute(&minor, kComputeCapabilityMinor, device);
  api.cuDeviceTotalMem_v2(&memory, device);
  api.cuDriverGetVersion(&version);
  description_ = std::string(name) + ", device " + std::to_string(ordinal) + " of " + std::to_string(count) +
                 ", compute capability " + std::to_string(major) + "." + std::to_string(minor) + ", " +
                 std::to_string(memory >> 30) + " GiB, driver API " + std::to_string(version / 1000) + "." +
                 std::to_string(version % 1000 / 10);
}

CudaError CudaDriver::check(const char* call, int result) const {
  if (result == 0) return CudaError();
  const char* name = nullptr;
  if (api_ == nullptr || api_->cuGetErrorName(result, &name) != 0 || name == nullptr) name = "unknown";
  std::string text = std::string(call) + " failed with CUresult " + std::to_string(result) + " (" + name + ")";
  if (result == kNoDevice) text += ": no CUDA-capable device";
  if (result == kStubLibrary) text += ": libcuda.so.1 is the toolkit's stub, not a driver";
  return text;
}

CudaError CudaDriver::make_current() {
  if (!ok()) return failure_;
  return check("cuCtxSetCurrent", api_->cuCtxSetCurrent(context_));
}

CudaError CudaDriver::allocate(size_t bytes, uint64_t* address) {
  if (!ok()) return failure_;
  return check("cuMemAlloc_v2", api_->cuMemAlloc_v2(address, bytes));
}

CudaError CudaDriver::release(uint64_t address) {
  if (!ok()) return failure_;
  return check("cuMemFree_v2", api_->cuMemFree_v2(address));
}

CudaError CudaDriver::copy_to_device(uint64_t destination, const void* source, size_t bytes) {
  if (!ok()) return failure_;
  return check("cuMemcpyHtoD_v2", api_->cuMemcpyHtoD_v2(destination, source, bytes));
}

CudaError CudaDriver::copy_to_host(void* destination, uint64_t source, size_t bytes) {
  if (!ok()) return failure_;
  return check("cuMemcpyDtoH_v2", api_->cuMemcpyDtoH_v2(destination, source, bytes));
}

CudaError CudaDriver::copy_on_device(uint64_t destination, uint64_t source, size_t bytes) {
  if (!ok()) return failure_;
  return check("cuMemcpyDtoD_v2", api_->cuMemcpyDtoD_v2(destination, source, bytes));
}

CudaError CudaDriver::fill(uint64_t destination, uint8_t byte, size_t bytes) {
  if (!ok()) return failure_;
  return check("cuMemsetD8_v2", api_->cuMemsetD8_v2(destination, byte, bytes));
}

CudaError CudaDriver::synchronize() {
  if (!ok()) return failure_;
  return check("cuCtxSynchronize", api_->cuCtxSynchronize());
}

CudaError CudaDriver::create_event(void** event) {
  if (!ok()) return failure_;
  return check("cuEventCreate", api_->cuEventCreate(event, 0));  // CU_EVENT_DEFAULT: timing on
}

CudaError CudaDriver::destroy_event(void* event) {
  if (!ok()) return failure_;
  return check("cuEventDestroy_v2", api_->cuEventDestroy_v2(event));
}

CudaError CudaDriver::record_event(void* event) {
  if (!ok()) return failure_;
  return check("cuEventRecord", api_->cuEventRecord(event, nullptr));
}

CudaError CudaDriver::wait_for_event(void* event) {
  if (!ok()) return failure_;
  return check("cuEventSynchronize", api_->cuEventSynchronize(event));
}

CudaError CudaDriver::elapsed_ms(void* start, void* end, float* milliseconds) {
  if (!ok()) return failure_;
  return check("cuEventElapsedTime", api_->cuEventElapsedTime(milliseconds, start, end));
}

DeviceAllocation::~DeviceAllocation() {
  if (address_ != 0) CudaDriver::get().release(address_);
}

CudaError DeviceAllocation::create(size_t bytes) {
  if (address_ != 0) return "DeviceAllocation::create called twice";
  const CudaError error = CudaDriver::get().allocate(bytes, &address_);
  if (!error.empty()) {
    address_ = 0;
    return error;
  }
  bytes_ = bytes;
  return error;
}

}  // namespace onnxpool_cuda
