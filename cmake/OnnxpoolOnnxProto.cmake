# onnxpool_onnx_proto: the C++ classes of onnx.proto (onnx::ModelProto,
# onnx::TensorProto, ...) for the conformance runner.
#
# onnx.proto comes from the onnx package pinned in tools/requirements.txt (the
# same one that regenerates the official cases), found through
# Python3_EXECUTABLE unless ONNXPOOL_ONNX_PROTO names the file. protoc is the
# host's; in a cross build it runs on the host and its output is compiled for
# the target. The library is Debian's static libprotobuf of the target's
# architecture: the host's libprotobuf-dev, or for a cross build the same
# package of the target architecture unpacked into .deps/<arch>/ by
# tools/fetch_cross_deps.sh (tools/build_preset.sh runs it), so the runner
# under qemu needs no protobuf shared library from the sysroot.
include_guard(GLOBAL)

find_program(ONNXPOOL_PROTOC protoc)
if(NOT ONNXPOOL_PROTOC)
  message(FATAL_ERROR "onnxpool: the conformance runner needs protoc (Debian: protobuf-compiler; "
                      "tools/setup.sh installs it), or configure with -DONNXPOOL_BUILD_RUNNER=OFF")
endif()

set(ONNXPOOL_ONNX_PROTO "" CACHE FILEPATH "onnx.proto to compile (default: the one of Python3_EXECUTABLE's onnx package)")
set(onnx_proto "${ONNXPOOL_ONNX_PROTO}")
if(NOT onnx_proto)
  execute_process(
    COMMAND "${Python3_EXECUTABLE}" -c "import os, onnx; print(os.path.join(os.path.dirname(onnx.__file__), 'onnx.proto'))"
    OUTPUT_VARIABLE onnx_proto OUTPUT_STRIP_TRAILING_WHITESPACE
    RESULT_VARIABLE onnx_found ERROR_QUIET)
  if(NOT onnx_found EQUAL 0)
    set(onnx_proto "")
  endif()
endif()
if(NOT onnx_proto OR NOT EXISTS "${onnx_proto}")
  message(FATAL_ERROR "onnxpool: no onnx.proto found (Python '${Python3_EXECUTABLE}' has no onnx package); "
                      "run tools/setup.sh, or pass -DONNXPOOL_ONNX_PROTO=/path/to/onnx.proto")
endif()

# The file asks for protobuf's lite runtime; the runner builds it with the full
# one, whose descriptors let a file that does not parse be reported by the
# field that breaks (onnx_messages.cpp). The copy differs in that one line only.
set(onnx_proto_dir "${CMAKE_BINARY_DIR}/onnx_proto")
file(READ "${onnx_proto}" onnx_proto_text)
string(REPLACE "option optimize_for = LITE_RUNTIME;" "" onnx_proto_text "${onnx_proto_text}")
file(CONFIGURE OUTPUT "${onnx_proto_dir}/onnx/onnx.proto" CONTENT "${onnx_proto_text}" @ONLY)

add_custom_command(
  OUTPUT "${onnx_proto_dir}/onnx/onnx.pb.cc" "${onnx_proto_dir}/onnx/onnx.pb.h"
  COMMAND "${ONNXPOOL_PROTOC}" "--proto_path=${onnx_proto_dir}" "--cpp_out=${onnx_proto_dir}"
          "${onnx_proto_dir}/onnx/onnx.proto"
  DEPENDS "${onnx_proto_dir}/onnx/onnx.proto"
  COMMENT "protoc: onnx.proto -> C++"
  VERBATIM)

if(CMAKE_CROSSCOMPILING)
  # Only the unpacked target package: the host's library is the wrong architecture.
  file(GLOB cross_library_dirs "${PROJECT_SOURCE_DIR}/.deps/*/usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}")
  find_library(ONNXPOOL_PROTOBUF_LIBRARY NAMES libprotobuf.a PATHS ${cross_library_dirs}
               NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
  set(missing_hint "run tools/fetch_cross_deps.sh for the target architecture (e.g. arm64)")
else()
  find_library(ONNXPOOL_PROTOBUF_LIBRARY NAMES libprotobuf.a)
  set(missing_hint "install Debian's libprotobuf-dev (tools/setup.sh does)")
endif()
# The headers do not depend on the architecture: the host's serve both.
find_path(ONNXPOOL_PROTOBUF_INCLUDE_DIR google/protobuf/message.h NO_CMAKE_FIND_ROOT_PATH)
if(NOT ONNXPOOL_PROTOBUF_LIBRARY OR NOT ONNXPOOL_PROTOBUF_INCLUDE_DIR)
  message(FATAL_ERROR "onnxpool: the conformance runner needs libprotobuf.a for ${CMAKE_LIBRARY_ARCHITECTURE} "
                      "and protobuf's headers: ${missing_hint}; or configure with -DONNXPOOL_BUILD_RUNNER=OFF")
endif()
find_package(Threads REQUIRED)

add_library(onnxpool_onnx_proto STATIC "${onnx_proto_dir}/onnx/onnx.pb.cc")
target_include_directories(onnxpool_onnx_proto SYSTEM PUBLIC "${onnx_proto_dir}" "${ONNXPOOL_PROTOBUF_INCLUDE_DIR}")
target_link_libraries(onnxpool_onnx_proto PUBLIC "${ONNXPOOL_PROTOBUF_LIBRARY}" Threads::Threads)
