# Cross build for 64-bit ARM Linux with Debian's g++-aarch64-linux-gnu.
# The kernels are generated on the host (the Halide wheel is x86-64 only) by
# the generators a host build exports: configure with
#   -Donnxpool-halide_generators_ROOT=<host build dir>
# Programs built here run under qemu-user with Debian's aarch64 sysroot, so
# ctest runs the test suite unchanged.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

set(ONNXPOOL_AARCH64_SYSROOT /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH "${ONNXPOOL_AARCH64_SYSROOT}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
# Packages from both: HalideHelpers and the host's generators live outside the sysroot.
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)

set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L "${ONNXPOOL_AARCH64_SYSROOT}")
