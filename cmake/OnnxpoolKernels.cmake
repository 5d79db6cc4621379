# Ahead-of-time kernel generation.
#
# Every kernel is generated once per Halide target (ONNXPOOL_ALL_TARGETS), each a
# function of its own (<name>_v<i>). The runtime picks among them per call
# (runtime/cpu_dispatch.cpp) rather than through Halide's multi-target
# wrapper: that wrapper caches its first choice, so a variant limit set later
# would be ignored and tests could not run every variant.
# All objects go into the single libonnxpool.a, so users link one archive.
# The runtime finds kernels through a generated table (onnxpool_kernel_table.h).

set(ONNXPOOL_KERNEL_DIR "${CMAKE_BINARY_DIR}/kernels")
# The generator executable: built here, or imported from a host build when
# cross-compiling or given onnxpool-halide_generators_ROOT
# (add_halide_generator's namespaced name covers both).
set(ONNXPOOL_GENERATORS onnxpool::halide_generators::onnxpool_generators)
# A file-level dependency on an imported executable needs its path.
if(CMAKE_CROSSCOMPILING OR onnxpool-halide_generators_FOUND)
  set(ONNXPOOL_GENERATORS_DEPENDS "$<TARGET_FILE:${ONNXPOOL_GENERATORS}>")
else()
  set(ONNXPOOL_GENERATORS_DEPENDS onnxpool_generators)
endif()
file(MAKE_DIRECTORY "${ONNXPOOL_KERNEL_DIR}")

# onnxpool_add_kernel(NAME <fn> GENERATOR <registered name> OP <PoolOp suffix>
#                     TYPE <ElementType suffix> RANK <0|1|2|3> VARIANT <KernelVariant suffix>
#                     [CPU_ONLY] [FEATURES <Halide target feature>...] PARAMS <k=v>...)
# RANK 0 is a global kernel over flattened planes. FEATURES are added to every target.
# CPU_ONLY: no kernel for the GPU targets (the runtime uses another variant there).
function(onnxpool_add_kernel)
  cmake_parse_arguments(ARG "CPU_ONLY" "NAME;GENERATOR;OP;TYPE;RANK;VARIANT" "FEATURES;PARAMS" ${ARGN})
  set(features user_context no_runtime ${ARG_FEATURES})
  list(JOIN features "-" features)
  set(runs "")
  set(metadata "")
  set(index 0)
  foreach(target IN LISTS ONNXPOOL_ALL_TARGETS)
    set(fn "${ARG_NAME}_v${index}")
    math(EXPR index "${index} + 1")
    # Halide's OpenCL code for 16-bit floats (float16 and bfloat16 alike)
    # needs cl_khr_fp16, an optional extension (PoCL lacks it); without
    # cl_half the runtime runs them on the float32 kernels
    # (runtime/half_widening.cpp).
    set(gpu_target OFF)
    if(target MATCHES "(opencl|cuda|metal|vulkan|d3d12compute|webgpu)")
      set(gpu_target ON)
    endif()
    if((ARG_CPU_ONLY AND gpu_target) OR
       (target MATCHES "opencl" AND NOT target MATCHES "cl_half" AND ARG_TYPE MATCHES "^k(Float16|BFloat16)$"))
      list(APPEND runs "nullptr")
      list(APPEND metadata "nullptr")
      continue()
    endif()
    set(outputs "${ONNXPOOL_KERNEL_DIR}/${fn}.h" "${ONNXPOOL_KERNEL_DIR}/${fn}.o")
    add_custom_command(
      OUTPUT ${outputs}
      COMMAND ${ONNXPOOL_GENERATORS} -g ${ARG_GENERATOR} -f ${fn} -n ${fn} -e object,c_header
              -o "${ONNXPOOL_KERNEL_DIR}" "target=${target}-${features}" ${ARG_PARAMS}
      DEPENDS ${ONNXPOOL_GENERATORS_DEPENDS}
      COMMENT "Generating kernel ${fn} (${target})"
      VERBATIM)
    set_property(GLOBAL APPEND PROPERTY ONNXPOOL_KERNEL_OUTPUTS ${outputs})
    set_property(GLOBAL APPEND PROPERTY ONNXPOOL_KERNEL_HEADERS "#include \"${fn}.h\"")
    list(APPEND runs "${fn}_argv")
    list(APPEND metadata "${fn}_metadata")
  endforeach()
  list(JOIN runs ", " runs)
  list(JOIN metadata ", " metadata)
  set_property(GLOBAL APPEND PROPERTY ONNXPOOL_KERNEL_ENTRIES
               "{PoolOp::${ARG_OP}, ElementType::${ARG_TYPE}, ${ARG_RANK}, KernelVariant::${ARG_VARIANT}, {${runs}}, {${metadata}}},")
endfunction()

# Writes the table the runtime looks kernels up in; call after all kernels.
function(onnxpool_write_kernel_table out_file)
  get_property(entries GLOBAL PROPERTY ONNXPOOL_KERNEL_ENTRIES)
  get_property(headers GLOBAL PROPERTY ONNXPOOL_KERNEL_HEADERS)
  list(JOIN headers "\n" ONNXPOOL_KERNEL_INCLUDES)
  list(JOIN entries "\n    " ONNXPOOL_KERNEL_ROWS)
  list(LENGTH ONNXPOOL_ALL_TARGETS ONNXPOOL_TARGET_COUNT)
  list(JOIN ONNXPOOL_TARGET_ROWS ", " ONNXPOOL_TARGET_ROWS_TEXT)
  configure_file("${PROJECT_SOURCE_DIR}/runtime/kernel_table.h.in" "${out_file}" @ONLY)
endfunction()
