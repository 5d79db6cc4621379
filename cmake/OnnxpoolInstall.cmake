# cmake --install: headers, libonnxpool.a (kernels and Halide runtime inside)
# and a CMake package, so applications do find_package(onnxpool).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS onnxpool EXPORT onnxpoolTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY include/onnxpool DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT onnxpoolTargets NAMESPACE onnxpool::
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/onnxpool)
configure_package_config_file(cmake/onnxpoolConfig.cmake.in
                              "${CMAKE_CURRENT_BINARY_DIR}/onnxpoolConfig.cmake"
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/onnxpool)
write_basic_package_version_file("${CMAKE_CURRENT_BINARY_DIR}/onnxpoolConfigVersion.cmake"
                                 COMPATIBILITY SameMinorVersion)
install(FILES "${CMAKE_CURRENT_BINARY_DIR}/onnxpoolConfig.cmake"
              "${CMAKE_CURRENT_BINARY_DIR}/onnxpoolConfigVersion.cmake"
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/onnxpool)

if(BUILD_TESTING)
  # A cross build's app is built with the same toolchain and run under the
  # same emulator ('|'-separated: a CMake list would split the argument).
  list(JOIN CMAKE_CROSSCOMPILING_EMULATOR "|" emulator)
  add_test(NAME install_and_use_package
           COMMAND "${CMAKE_COMMAND}" -DBUILD_DIR=${CMAKE_BINARY_DIR} -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
                   -DWORK_DIR=${CMAKE_BINARY_DIR}/install-test "-DGENERATOR=${CMAKE_GENERATOR}"
                   "-DMAKE_PROGRAM=${CMAKE_MAKE_PROGRAM}" "-DTOOLCHAIN_FILE=${CMAKE_TOOLCHAIN_FILE}"
                   "-DEMULATOR=${emulator}" "-DCXX_COMPILER=${CMAKE_CXX_COMPILER}"
                   -P "${PROJECT_SOURCE_DIR}/cmake/install_smoke_test.cmake")
  # The selected build links this build's kernels, so only a complete host
  # build (not a cross, sanitized or borrowing one) runs it.
  if(NOT CMAKE_CROSSCOMPILING AND NOT ONNXPOOL_SANITIZE AND NOT ONNXPOOL_KERNELS_FROM)
    add_test(NAME selected_build_app
             COMMAND "${CMAKE_COMMAND}" -DBUILD_DIR=${CMAKE_BINARY_DIR} -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
                     -DWORK_DIR=${CMAKE_BINARY_DIR}/selected-build-test "-DGENERATOR=${CMAKE_GENERATOR}"
                     "-DMAKE_PROGRAM=${CMAKE_MAKE_PROGRAM}" "-DCXX_COMPILER=${CMAKE_CXX_COMPILER}"
                     "-DHALIDE_DIR=${Halide_DIR}" "-DHALIDE_HELPERS_DIR=${HalideHelpers_DIR}"
                     "-DPYTHON=${Python3_EXECUTABLE}"
                     -P "${PROJECT_SOURCE_DIR}/cmake/selected_build_test.cmake")
  endif()
endif()
