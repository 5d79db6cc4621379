# Where Halide's CMake packages are when nobody said: the Halide wheel in the
# project's .venv (tools/setup.sh installs it). Lets a plain
# `cmake --preset <name>` work without paths; an explicit Halide_DIR,
# HalideHelpers_DIR or Halide_ROOT wins.
include_guard(GLOBAL)

set(venv_python "${PROJECT_SOURCE_DIR}/.venv/bin/python")
if(NOT Halide_DIR AND NOT HalideHelpers_DIR AND NOT Halide_ROOT AND EXISTS "${venv_python}")
  execute_process(COMMAND "${venv_python}" -c "import halide; print(halide.install_dir())"
                  OUTPUT_VARIABLE halide_install_dir OUTPUT_STRIP_TRAILING_WHITESPACE
                  RESULT_VARIABLE halide_found ERROR_QUIET)
  if(halide_found EQUAL 0 AND EXISTS "${halide_install_dir}/lib64/cmake/Halide")
    set(Halide_DIR "${halide_install_dir}/lib64/cmake/Halide" CACHE PATH "Halide's CMake package")
    set(HalideHelpers_DIR "${halide_install_dir}/lib64/cmake/HalideHelpers" CACHE PATH "HalideHelpers' CMake package")
  endif()
endif()
if(NOT Python3_EXECUTABLE AND EXISTS "${venv_python}")
  # The test scripts need the .venv's onnx, numpy and onnxruntime.
  set(Python3_EXECUTABLE "${venv_python}" CACHE FILEPATH "Python for the test scripts")
endif()
