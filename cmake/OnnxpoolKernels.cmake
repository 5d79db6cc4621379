# Ahead-of-time kernel generation.
#
# Every kernel is generated once per Halide target (ONNXPOOL_ALL_TARGETS), each a
# function of its own (<name>_v<i>). The runtime picks among them per call
# (runtime/dispatch/cpu_dispatch.cpp) rather than through Halide's multi-target
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

# A build of the same kernels for another purpose (the sanitize preset: the
# runtime, tests and tools under ASan and UBSan) can link the kernels a host
# build has generated instead of generating its own: same targets and tuning
# tables, checked at configure time (onnxpool_write_kernel_table).
set(ONNXPOOL_KERNELS_FROM "" CACHE PATH
    "A build tree whose generated kernels this build links instead of generating its own (same kernel table)")
set(ONNXPOOL_ASAN_KERNEL_RANKS 0 1 2 3 CACHE STRING
    "Spatial ranks (0: global kernels) whose kernels keep the asan feature of ONNXPOOL_TARGETS")

# A selected build: only the kernels of these operators, element types and
# spatial ranks (each "all", or a list separated by commas or semicolons).
# The CPU variants and GPU backends are selected by ONNXPOOL_TARGETS and
# ONNXPOOL_GPU_TARGETS. A call outside the selection returns kUnsupported
# naming it (runtime/plan/operator_setup.cpp).
set(ONNXPOOL_OPERATORS "all" CACHE STRING
    "Operators to build kernels for: all, or some of maxpool averagepool lppool globalmaxpool globalaveragepool globallppool")
set(ONNXPOOL_TYPES "all" CACHE STRING
    "Element types to build kernels for: all, or some of float32 float16 bfloat16 float64 int8 uint8")
set(ONNXPOOL_RANKS "all" CACHE STRING "Spatial ranks of the windowed operators' kernels: all, or some of 1 2 3")

# Sets out_var to `value` as a lower-case list, or to `all_values` for "all";
# stops with the valid names if one is not among them.
function(onnxpool_selection option all_values out_var)
  string(REPLACE "," ";" values "${${option}}")
  string(TOLOWER "${values}" values)
  list(TRANSFORM values STRIP)
  list(REMOVE_ITEM values "")
  if(values STREQUAL "all")
    set(${out_var} "${all_values}" PARENT_SCOPE)
    return()
  endif()
  if(NOT values)
    message(FATAL_ERROR "onnxpool: ${option} is empty; give \"all\" or some of: ${all_values}")
  endif()
  foreach(value IN LISTS values)
    if(NOT value IN_LIST all_values)
      message(FATAL_ERROR "onnxpool: ${option}=${${option}}: '${value}' is not one of: all ${all_values}")
    endif()
  endforeach()
  set(${out_var} "${values}" PARENT_SCOPE)
endfunction()
onnxpool_selection(ONNXPOOL_OPERATORS
                   "maxpool;averagepool;lppool;globalmaxpool;globalaveragepool;globallppool" onnxpool_selected_operators)
onnxpool_selection(ONNXPOOL_TYPES "float32;float16;bfloat16;float64;int8;uint8" onnxpool_selected_types)
onnxpool_selection(ONNXPOOL_RANKS "1;2;3" onnxpool_selected_ranks)
# How the runtime names the selection in its kUnsupported messages; empty for a complete build.
set(ONNXPOOL_SELECTION_TEXT "")
foreach(option IN ITEMS ONNXPOOL_OPERATORS ONNXPOOL_TYPES ONNXPOOL_RANKS)
  if(NOT "${${option}}" STREQUAL "all")
    string(APPEND ONNXPOOL_SELECTION_TEXT " -D${option}=${${option}}")
  endif()
endforeach()
string(STRIP "${ONNXPOOL_SELECTION_TEXT}" ONNXPOOL_SELECTION_TEXT)

# Whether a kernel (onnxpool_add_kernel's OP, TYPE, RANK and VARIANT) is in
# the selection. LpPool's range check (rank 0) serves both Lp operators.
function(onnxpool_kernel_selected op type rank variant out_var)
  string(REGEX REPLACE "^k" "" op_name "${op}")
  string(TOLOWER "${op_name}" op_name)
  string(REGEX REPLACE "^k" "" type_name "${type}")
  string(TOLOWER "${type_name}" type_name)
  set(selected FALSE)
  if(variant STREQUAL "kRangeCheck")
    if("lppool" IN_LIST onnxpool_selected_operators OR "globallppool" IN_LIST onnxpool_selected_operators)
      set(selected TRUE)
    endif()
  elseif(op_name IN_LIST onnxpool_selected_operators AND (rank EQUAL 0 OR rank IN_LIST onnxpool_selected_ranks))
    set(selected TRUE)
  endif()
  if(NOT type_name IN_LIST onnxpool_selected_types)
    set(selected FALSE)
  endif()
  set(${out_var} ${selected} PARENT_SCOPE)
endfunction()

# onnxpool_add_kernel(NAME <fn> GENERATOR <registered name> OP <PoolOp suffix>
#                     TYPE <ElementType suffix> RANK <0|1|2|3> VARIANT <KernelVariant suffix>
#                     [CPU_ONLY] [FEATURES <Halide target feature>...] PARAMS <k=v>...)
# RANK 0 is a global kernel over flattened planes. FEATURES are added to every target.
# CPU_ONLY: no kernel for the GPU targets (the runtime uses another variant there).
function(onnxpool_add_kernel)
  cmake_parse_arguments(ARG "CPU_ONLY" "NAME;GENERATOR;OP;TYPE;RANK;VARIANT" "FEATURES;PARAMS" ${ARGN})
  onnxpool_kernel_selected(${ARG_OP} ${ARG_TYPE} ${ARG_RANK} ${ARG_VARIANT} selected)
  if(NOT selected)
    return()
  endif()
  set(features user_context no_runtime ${ARG_FEATURES})
  list(JOIN features "-" features)
  set(runs "")
  set(metadata "")
  set(knob_texts "")
  set(manifest_targets "")
  set(index 0)
  foreach(target IN LISTS ONNXPOOL_ALL_TARGETS)
    set(fn "${ARG_NAME}_v${index}")
    list(GET ONNXPOOL_TARGET_TABLES ${index} table)
    set(target_index ${index})
    math(EXPR index "${index} + 1")
    # Halide's OpenCL code for 16-bit floats (float16 and bfloat16 alike)
    # needs cl_khr_fp16, an optional extension (PoCL lacks it); without
    # cl_half the runtime runs them on the float32 kernels
    # (runtime/execute/half_widening.cpp).
    set(gpu_target OFF)
    if(target MATCHES "(opencl|cuda|metal|vulkan|d3d12compute|webgpu)")
      set(gpu_target ON)
    endif()
    if((ARG_CPU_ONLY AND gpu_target) OR
       (target MATCHES "opencl" AND NOT target MATCHES "cl_half" AND ARG_TYPE MATCHES "^k(Float16|BFloat16)$"))
      list(APPEND runs "nullptr")
      list(APPEND metadata "nullptr")
      list(APPEND knob_texts "nullptr")
      continue()
    endif()
    # Halide's asan feature more than doubles a kernel's generation time, and
    # the 3D kernels take half of a sanitizer build's (25 of 114 kernels, 11
    # of 23 CPU-minutes of generation): kernels of the ranks outside
    # ONNXPOOL_ASAN_KERNEL_RANKS are generated without it (their writes are
    # still checked by the fuzzer's guard bytes and Halide's own bounds checks).
    if(target MATCHES "-asan" AND NOT ARG_RANK IN_LIST ONNXPOOL_ASAN_KERNEL_RANKS)
      string(REPLACE "-asan" "" target "${target}")
    endif()
    onnxpool_tuned_knobs(${table} ${ARG_NAME} knobs)
    list(JOIN knobs " " knob_text)
    list(APPEND knob_texts "\"${knob_text}\"")
    set(knob_json "")
    foreach(knob IN LISTS knobs)
      string(APPEND knob_json "${comma}\"${knob}\"")
      set(comma ", ")
    endforeach()
    set(comma "")
    set(knob_args "")
    set(knob_depends "")
    if(NOT ONNXPOOL_KERNELS_FROM)
      onnxpool_knob_generator_args("${knobs}" knob_args knob_depends)
    endif()
    set(args_json "")
    foreach(arg IN LISTS knob_args)
      string(APPEND args_json "${comma}\"${arg}\"")
      set(comma ", ")
    endforeach()
    set(comma "")
    list(APPEND manifest_targets
         "{\"index\": ${target_index}, \"function\": \"${fn}\", \"target\": \"${target}-${features}\", \"table\": \"${table}\", \"knobs\": [${knob_json}], \"knob_args\": [${args_json}]}")
    if(ONNXPOOL_KERNELS_FROM)
      set(outputs "${ONNXPOOL_KERNELS_FROM}/kernels/${fn}.h" "${ONNXPOOL_KERNELS_FROM}/kernels/${fn}.o")
    else()
      set(outputs "${ONNXPOOL_KERNEL_DIR}/${fn}.h" "${ONNXPOOL_KERNEL_DIR}/${fn}.o")
      add_custom_command(
        OUTPUT ${outputs}
        COMMAND ${ONNXPOOL_GENERATORS} -g ${ARG_GENERATOR} -f ${fn} -n ${fn} -e object,c_header
                -o "${ONNXPOOL_KERNEL_DIR}" "target=${target}-${features}" ${ARG_PARAMS} ${knob_args}
        DEPENDS ${ONNXPOOL_GENERATORS_DEPENDS} ${knob_depends}
        COMMENT "Generating kernel ${fn} (${target})"
        VERBATIM)
    endif()
    set_property(GLOBAL APPEND PROPERTY ONNXPOOL_KERNEL_OUTPUTS ${outputs})
    set_property(GLOBAL APPEND PROPERTY ONNXPOOL_KERNEL_HEADERS "#include \"${fn}.h\"")
    list(APPEND runs "${fn}_argv")
    list(APPEND metadata "${fn}_metadata")
  endforeach()
  list(JOIN runs ", " runs)
  list(JOIN metadata ", " metadata)
  list(JOIN knob_texts ", " knob_texts)
  set_property(GLOBAL APPEND PROPERTY ONNXPOOL_KERNEL_NAMES "\"${ARG_NAME}\"")
  set_property(GLOBAL APPEND PROPERTY ONNXPOOL_KERNEL_ENTRIES
               "{PoolOp::${ARG_OP}, ElementType::${ARG_TYPE}, ${ARG_RANK}, KernelVariant::${ARG_VARIANT}, {${runs}}, {${metadata}}, \"${ARG_NAME}\", {${knob_texts}}},")
  # What tools/tune.sh needs to generate this kernel on its own.
  set(params_json "")
  set(comma "")
  foreach(param IN LISTS ARG_PARAMS)
    string(APPEND params_json "${comma}\"${param}\"")
    set(comma ", ")
  endforeach()
  list(JOIN manifest_targets ", " manifest_targets)
  set_property(GLOBAL APPEND PROPERTY ONNXPOOL_KERNEL_MANIFEST
               "{\"name\": \"${ARG_NAME}\", \"generator\": \"${ARG_GENERATOR}\", \"op\": \"${ARG_OP}\", \"type\": \"${ARG_TYPE}\", \"rank\": ${ARG_RANK}, \"variant\": \"${ARG_VARIANT}\", \"params\": [${params_json}], \"targets\": [${manifest_targets}]}")
endfunction()

# Writes the table the runtime looks kernels up in; call after all kernels.
function(onnxpool_write_kernel_table out_file)
  get_property(entries GLOBAL PROPERTY ONNXPOOL_KERNEL_ENTRIES)
  if(NOT entries)
    message(FATAL_ERROR "onnxpool: the selection ${ONNXPOOL_SELECTION_TEXT} has no kernel (e.g. the integer types "
                        "have MaxPool kernels only)")
  endif()
  get_property(headers GLOBAL PROPERTY ONNXPOOL_KERNEL_HEADERS)
  list(JOIN headers "\n" ONNXPOOL_KERNEL_INCLUDES)
  list(JOIN entries "\n    " ONNXPOOL_KERNEL_ROWS)
  list(LENGTH ONNXPOOL_ALL_TARGETS ONNXPOOL_TARGET_COUNT)
  list(JOIN ONNXPOOL_TARGET_ROWS ", " ONNXPOOL_TARGET_ROWS_TEXT)
  # Each target's run-time knobs, from its table's "runtime" row.
  set(runtime_rows "")
  set(runtime_manifest "")
  set(index 0)
  foreach(table IN LISTS ONNXPOOL_TARGET_TABLES)
    onnxpool_tuned_runtime_knobs(${table} knobs)
    set(pairs "")
    set(knob_json "")
    set(comma "")
    foreach(knob IN LISTS knobs)
      string(REGEX REPLACE "=.*" "" name "${knob}")
      string(REGEX REPLACE "^[^=]*=" "" value "${knob}")
      string(APPEND pairs "${comma}{\"${name}\", ${value}}")
      string(APPEND knob_json "${comma}\"${knob}\"")
      set(comma ", ")
    endforeach()
    list(APPEND runtime_rows "runtime_knobs_with({${pairs}})")
    list(APPEND runtime_manifest "{\"index\": ${index}, \"table\": \"${table}\", \"knobs\": [${knob_json}]}")
    math(EXPR index "${index} + 1")
  endforeach()
  list(JOIN runtime_rows ", " ONNXPOOL_RUNTIME_KNOB_ROWS)
  configure_file("${PROJECT_SOURCE_DIR}/runtime/dispatch/kernel_table.h.in" "${out_file}" @ONLY)
  if(ONNXPOOL_KERNELS_FROM)
    set(theirs "${ONNXPOOL_KERNELS_FROM}/kernels/onnxpool_kernel_table.h")
    if(NOT EXISTS "${theirs}")
      message(FATAL_ERROR "onnxpool: ONNXPOOL_KERNELS_FROM=${ONNXPOOL_KERNELS_FROM} has no kernel table; "
                          "configure and build it first (tools/setup.sh makes build/)")
    endif()
    file(READ "${theirs}" their_table)
    file(READ "${out_file}" our_table)
    # A selected build may link some of a complete build's kernels: its
    # targets must be the first of theirs (the CPU ones come first, so a
    # selection without GPU targets qualifies) and each of its kernels theirs.
    set(subset TRUE)
    if(ONNXPOOL_SELECTION_TEXT)
      get_property(names GLOBAL PROPERTY ONNXPOOL_KERNEL_NAMES)
      foreach(text IN LISTS names ONNXPOOL_TARGET_ROWS_TEXT)
        string(FIND "${their_table}" "${text}" at)
        if(at EQUAL -1)
          set(subset FALSE)
        endif()
      endforeach()
    endif()
    if(NOT (their_table STREQUAL our_table OR (ONNXPOOL_SELECTION_TEXT AND subset)))
      message(FATAL_ERROR "onnxpool: the kernels of ONNXPOOL_KERNELS_FROM=${ONNXPOOL_KERNELS_FROM} are not this "
                          "build's (its ${theirs} differs from ${out_file}: other targets, options or tuning "
                          "tables); reconfigure it, or build without ONNXPOOL_KERNELS_FROM")
    endif()
  endif()
  # Every kernel's generator, parameters and per-target knobs, for
  # tools/tune.sh (which generates candidates of one kernel at a time).
  get_property(manifest GLOBAL PROPERTY ONNXPOOL_KERNEL_MANIFEST)
  list(JOIN manifest ",\n  " manifest)
  get_filename_component(dir "${out_file}" DIRECTORY)
  list(JOIN runtime_manifest ", " runtime_manifest)
  file(WRITE "${dir}/onnxpool_kernel_manifest.json.tmp"
       "{\"runtime\": [${runtime_manifest}],\n \"kernels\": [\n  ${manifest}\n]}\n")
  file(COPY_FILE "${dir}/onnxpool_kernel_manifest.json.tmp" "${dir}/onnxpool_kernel_manifest.json" ONLY_IF_DIFFERENT)
endfunction()
