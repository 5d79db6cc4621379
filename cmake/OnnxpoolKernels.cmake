# Ahead-of-time kernel generation.
#
# Every kernel is one generator run that emits one object per Halide target
# plus a wrapper object that picks among them at run time (Halide multi-target).
# All objects go into the single libonnxpool.a, so users link one archive.
# The runtime finds kernels through a generated table (onnxpool_kernel_table.h).

set(ONNXPOOL_KERNEL_DIR "${CMAKE_BINARY_DIR}/kernels")
file(MAKE_DIRECTORY "${ONNXPOOL_KERNEL_DIR}")

# onnxpool_add_kernel(NAME <fn> GENERATOR <registered name> OP <PoolOp suffix>
#                     TYPE <halide type> RANK <1|2|3> VARIANT <plain|indices>
#                     TARGETS <t1> [<t2>...] PARAMS <k=v>...)
function(onnxpool_add_kernel)
  cmake_parse_arguments(ARG "" "NAME;GENERATOR;OP;TYPE;RANK;VARIANT" "TARGETS;PARAMS" ${ARGN})
  set(outputs "${ONNXPOOL_KERNEL_DIR}/${ARG_NAME}.h")
  list(TRANSFORM ARG_TARGETS APPEND "-user_context-no_runtime" OUTPUT_VARIABLE targets)
  list(LENGTH targets num_targets)
  if(num_targets GREATER 1)
    foreach(t IN LISTS targets)
      list(APPEND outputs "${ONNXPOOL_KERNEL_DIR}/${ARG_NAME}-${t}.o")
    endforeach()
    list(APPEND outputs "${ONNXPOOL_KERNEL_DIR}/${ARG_NAME}_wrapper.o")
  else()
    list(APPEND outputs "${ONNXPOOL_KERNEL_DIR}/${ARG_NAME}.o")
  endif()
  list(JOIN targets "," target_arg)
  add_custom_command(
    OUTPUT ${outputs}
    COMMAND onnxpool_generators -g ${ARG_GENERATOR} -f ${ARG_NAME} -n ${ARG_NAME}
            -e object,c_header -o "${ONNXPOOL_KERNEL_DIR}" "target=${target_arg}" ${ARG_PARAMS}
    DEPENDS onnxpool_generators
    COMMENT "Generating kernel ${ARG_NAME}"
    VERBATIM)
  set_property(GLOBAL APPEND PROPERTY ONNXPOOL_KERNEL_OUTPUTS ${outputs})
  set_property(GLOBAL APPEND PROPERTY ONNXPOOL_KERNEL_ENTRIES
               "{PoolOp::${ARG_OP}, ElementType::${ARG_TYPE}, ${ARG_RANK}, KernelVariant::${ARG_VARIANT}, ${ARG_NAME}_argv, ${ARG_NAME}_metadata},")
  set_property(GLOBAL APPEND PROPERTY ONNXPOOL_KERNEL_HEADERS "#include \"${ARG_NAME}.h\"")
endfunction()

# Writes the table the runtime looks kernels up in; call after all kernels.
function(onnxpool_write_kernel_table out_file)
  get_property(entries GLOBAL PROPERTY ONNXPOOL_KERNEL_ENTRIES)
  get_property(headers GLOBAL PROPERTY ONNXPOOL_KERNEL_HEADERS)
  list(JOIN headers "\n" ONNXPOOL_KERNEL_INCLUDES)
  list(JOIN entries "\n    " ONNXPOOL_KERNEL_ROWS)
  configure_file("${PROJECT_SOURCE_DIR}/runtime/kernel_table.h.in" "${out_file}" @ONLY)
endfunction()
