"""The name of the GPU device a tuning run measures on, asked of the driver (OpenCL ICD loader or
libcuda) through ctypes, so that records and tables say which device, as they say which CPU.

Halide's runtimes take, without environment settings, the first OpenCL platform's first device
(HL_OCL_PLATFORM_NAME and HL_OCL_DEVICE_TYPE change that) and CUDA device 0 (HL_GPU_DEVICE); so
does this, and names the setting when one is in the environment.
"""

import ctypes
import os

CL_DEVICE_TYPE_ALL = 0xFFFFFFFF
CL_DEVICE_NAME = 0x102B


class NoDevice(Exception):
    """No driver or no device: the message says which and what was tried."""


def _load(names):
    errors = []
    for name in names:
        try:
            return ctypes.CDLL(name)
        except OSError as e:
            errors.append(str(e))
    raise NoDevice("no driver library (" + "; ".join(errors) + ")")


def _opencl_device():
    lib = _load(("libOpenCL.so.1", "libOpenCL.so"))
    count = ctypes.c_uint(0)
    if lib.clGetPlatformIDs(0, None, ctypes.byref(count)) != 0 or count.value == 0:
        raise NoDevice("the OpenCL loader lists no platform (no ICD installed, e.g. pocl-opencl-icd)")
    platforms = (ctypes.c_void_p * count.value)()
    lib.clGetPlatformIDs(count, platforms, None)
    devices = ctypes.c_uint(0)
    if lib.clGetDeviceIDs(ctypes.c_void_p(platforms[0]), ctypes.c_ulonglong(CL_DEVICE_TYPE_ALL), 0, None,
                          ctypes.byref(devices)) != 0 or devices.value == 0:
        raise NoDevice("the first OpenCL platform has no device")
    ids = (ctypes.c_void_p * devices.value)()
    lib.clGetDeviceIDs(ctypes.c_void_p(platforms[0]), ctypes.c_ulonglong(CL_DEVICE_TYPE_ALL), devices, ids, None)
    name = ctypes.create_string_buffer(256)
    lib.clGetDeviceInfo(ctypes.c_void_p(ids[0]), ctypes.c_uint(CL_DEVICE_NAME), ctypes.c_size_t(len(name)), name,
                        None)
    return name.value.decode(errors="replace").strip()


def _cuda_device():
    lib = _load(("libcuda.so.1", "libcuda.so"))
    if lib.cuInit(0) != 0:
        raise NoDevice("cuInit failed: the NVIDIA driver has no usable device")
    device = ctypes.c_int(0)
    index = int(os.environ.get("HL_GPU_DEVICE", "0") or 0)
    if lib.cuDeviceGet(ctypes.byref(device), index) != 0:
        raise NoDevice(f"no CUDA device {index}")
    name = ctypes.create_string_buffer(256)
    lib.cuDeviceGetName(name, len(name), device)
    return name.value.decode(errors="replace").strip()


def device_name(backend):
    """'<device> (<backend>)', e.g. 'NVIDIA H100 80GB HBM3 (cuda)'; raises NoDevice."""
    name = {"opencl": _opencl_device, "cuda": _cuda_device}[backend]()
    settings = [f"{k}={os.environ[k]}" for k in ("HL_OCL_PLATFORM_NAME", "HL_OCL_DEVICE_TYPE", "HL_GPU_DEVICE")
                if os.environ.get(k)]
    return f"{name} ({backend}" + (", " + ", ".join(settings) if settings else "") + ")"
