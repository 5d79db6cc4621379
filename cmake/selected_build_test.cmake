# ctest script: a build selected for float32 2D MaxPool and GlobalAveragePool
# on the CPU variants (no GPU), linking the kernels of the complete build
# BUILD_DIR, installed into a scratch prefix; examples/embedded_app built
# against it and run. Checks the selection's promises: at most a tenth of the
# complete build's generator runs, an app of at most 4 MiB of text, and a
# node outside the selection refused with the options named.
# Inputs: BUILD_DIR, SOURCE_DIR, WORK_DIR, GENERATOR, MAKE_PROGRAM, CXX_COMPILER,
# HALIDE_DIR, HALIDE_HELPERS_DIR, PYTHON.
file(REMOVE_RECURSE "${WORK_DIR}")
include("${CMAKE_CURRENT_LIST_DIR}/script_run.cmake")
set(selection -DONNXPOOL_OPERATORS=maxpool,globalaveragepool -DONNXPOOL_TYPES=float32 -DONNXPOOL_RANKS=2)
run("${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${WORK_DIR}/build" -G "${GENERATOR}" "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}"
    -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}" ${selection}
    -DONNXPOOL_GPU_TARGETS= "-DONNXPOOL_KERNELS_FROM=${BUILD_DIR}"
    "-Donnxpool-halide_generators_ROOT=${BUILD_DIR}" -DBUILD_TESTING=OFF -DONNXPOOL_BUILD_BENCH=OFF
    -DONNXPOOL_BUILD_RUNNER=OFF "-DHalide_DIR=${HALIDE_DIR}" "-DHalideHelpers_DIR=${HALIDE_HELPERS_DIR}"
    "-DPython3_EXECUTABLE=${PYTHON}")
run("${CMAKE_COMMAND}" --build "${WORK_DIR}/build" --target onnxpool)
run("${CMAKE_COMMAND}" --install "${WORK_DIR}/build" --prefix "${WORK_DIR}/prefix")

# Generator runs: one per kernel function in each build's manifest.
function(generator_runs manifest out_var)
  file(READ "${manifest}" text)
  string(REGEX MATCHALL "\"function\"" functions "${text}")
  list(LENGTH functions count)
  set(${out_var} ${count} PARENT_SCOPE)
endfunction()
generator_runs("${BUILD_DIR}/kernels/onnxpool_kernel_manifest.json" complete_runs)
generator_runs("${WORK_DIR}/build/kernels/onnxpool_kernel_manifest.json" selected_runs)
math(EXPR most_runs "${complete_runs} / 10")
if(selected_runs EQUAL 0 OR selected_runs GREATER most_runs)
  message(FATAL_ERROR "the selected build runs ${selected_runs} generators, the complete one ${complete_runs}: "
                      "more than a tenth")
endif()

run("${CMAKE_COMMAND}" -S "${SOURCE_DIR}/examples/embedded_app" -B "${WORK_DIR}/app" -G "${GENERATOR}"
    "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}" -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}"
    "-DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix")
run("${CMAKE_COMMAND}" --build "${WORK_DIR}/app")
find_program(SIZE_TOOL size REQUIRED)
execute_process(COMMAND "${SIZE_TOOL}" "${WORK_DIR}/app/embedded_app" OUTPUT_VARIABLE sizes RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT sizes MATCHES "\n[ \t]*([0-9]+)")
  message(FATAL_ERROR "size could not read ${WORK_DIR}/app/embedded_app: ${sizes}")
endif()
set(text_bytes ${CMAKE_MATCH_1})
if(text_bytes GREATER 4194304)
  message(FATAL_ERROR "embedded_app has ${text_bytes} bytes of text against a selected build; at most 4 MiB")
endif()

execute_process(COMMAND "${WORK_DIR}/app/embedded_app" OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
message(STATUS "${out}${err}")
if(NOT rc EQUAL 0 OR NOT out MATCHES "match plain loops")
  message(FATAL_ERROR "embedded_app failed (${rc})")
endif()
if(NOT out MATCHES "float16 MaxPool: [^\n]*no float16 kernel[^\n]*-DONNXPOOL_TYPES=float32")
  message(FATAL_ERROR "a float16 MaxPool in a float32 build was not refused with the options named")
endif()
message(STATUS "selected build: ${selected_runs} of ${complete_runs} generator runs; embedded_app ${text_bytes} "
               "bytes of text")
