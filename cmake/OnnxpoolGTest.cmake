# GoogleTest for the tests: the installed package natively; in a cross build
# the host's libgtest is the wrong architecture, so GoogleTest is compiled
# here from the sources Debian's googletest package puts in /usr/src.
include_guard(GLOBAL)

set(ONNXPOOL_GTEST_SOURCE_DIR "/usr/src/googletest"
    CACHE PATH "GoogleTest sources for cross builds (Debian package googletest)")

if(CMAKE_CROSSCOMPILING)
  if(NOT EXISTS "${ONNXPOOL_GTEST_SOURCE_DIR}/CMakeLists.txt")
    message(FATAL_ERROR "onnxpool: no GoogleTest sources at ${ONNXPOOL_GTEST_SOURCE_DIR}; "
                        "install the Debian package googletest or set ONNXPOOL_GTEST_SOURCE_DIR")
  endif()
  set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
  set(BUILD_GMOCK OFF CACHE BOOL "" FORCE)
  # Its CMake defines GTest::gtest and GTest::gtest_main itself.
  add_subdirectory("${ONNXPOOL_GTEST_SOURCE_DIR}" "${CMAKE_BINARY_DIR}/googletest" EXCLUDE_FROM_ALL SYSTEM)
else()
  find_package(GTest REQUIRED)
endif()
