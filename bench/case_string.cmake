# onnxpool_case_string: the case-string grammar (bench/README.md) that the
# benchmark and the tuning runner read nodes in. Included from bench/ and,
# in builds without the benchmark (the ARM64 cross build), from tools/tuning/.
if(NOT TARGET onnxpool_case_string)
  add_library(onnxpool_case_string STATIC "${CMAKE_CURRENT_LIST_DIR}/case_string.cpp")
  target_compile_features(onnxpool_case_string PUBLIC cxx_std_17)
  # The program links the runtime it needs (the tuning tool: onnxpool_testing).
  target_include_directories(onnxpool_case_string PUBLIC "${CMAKE_CURRENT_LIST_DIR}" "${PROJECT_SOURCE_DIR}/include")
endif()
