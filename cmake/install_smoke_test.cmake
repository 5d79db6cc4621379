# ctest script: installs this build into a scratch prefix, then configures,
# builds and runs examples/maxpool_app against it with find_package(onnxpool).
# Inputs: BUILD_DIR, SOURCE_DIR, WORK_DIR, GENERATOR, MAKE_PROGRAM, CXX_COMPILER; for a
# cross build also TOOLCHAIN_FILE and EMULATOR ('|'-separated command).
file(REMOVE_RECURSE "${WORK_DIR}")
include("${CMAKE_CURRENT_LIST_DIR}/script_run.cmake")
run("${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${WORK_DIR}/prefix")
# The installed library carries no test hook (they are onnxpool_testing's).
file(GLOB_RECURSE archives "${WORK_DIR}/prefix/*libonnxpool.a")
if(NOT archives)
  message(FATAL_ERROR "no libonnxpool.a under ${WORK_DIR}/prefix")
endif()
foreach(archive IN LISTS archives)
  file(STRINGS "${archive}" hooks REGEX "_for_testing|window_taps_evaluated|replace_kernel_functions")
  if(hooks)
    list(GET hooks 0 first)
    message(FATAL_ERROR "${archive} holds a test hook: ${first}")
  endif()
endforeach()
# The app is built with the library's compiler (or toolchain): a sanitized
# library needs its compiler's sanitizer runtimes.
set(toolchain "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")
if(TOOLCHAIN_FILE)
  set(toolchain "-DCMAKE_TOOLCHAIN_FILE=${TOOLCHAIN_FILE}")
endif()
string(REPLACE "|" ";" emulator "${EMULATOR}")
run("${CMAKE_COMMAND}" -S "${SOURCE_DIR}/examples/maxpool_app" -B "${WORK_DIR}/app" -G "${GENERATOR}"
    "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}" "-DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix" ${toolchain})
run("${CMAKE_COMMAND}" --build "${WORK_DIR}/app")
run(${emulator} "${WORK_DIR}/app/maxpool_app")
