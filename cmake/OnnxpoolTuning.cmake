# The recorded tuning winners (generators/schedules/tuned/<table>.json,
# written by tools/tune.sh) as generator parameters for each kernel.
#
# A table holds, per kernel function name (e.g. onnxpool_maxpool_float32_2d),
# the knobs of the candidate that won over every CPU it was measured on
# ("knobs") and each CPU's own winner ("by_cpu"."<cpu>"."knobs"). A kernel
# without a row, or a build without the table, gets the hand schedule's
# defaults (generators/schedules/schedule_knobs.h). Reading the tables runs no
# generator and no autoscheduler, so a build stays reproducible.

set(ONNXPOOL_TUNED_DIR "${PROJECT_SOURCE_DIR}/generators/schedules/tuned"
    CACHE PATH "Where the tuning tables (<table>.json) are read from")
set(ONNXPOOL_TUNED_FOR ""
    CACHE STRING "Build each kernel with the knobs that won on this one CPU (its name as the tables' by_cpu keys spell it, e.g. from tools/tune.sh --list-cpus); empty: the winner over every recorded CPU")
option(ONNXPOOL_HAND_SCHEDULES_ONLY "Ignore the tuning tables: every kernel gets the hand defaults" OFF)

# The table a Halide target's kernels are tuned in: one per instruction set
# the library dispatches to (x86-64-avx512, x86-64-avx2, x86-64-sse41), arm64,
# and one per GPU API.
function(onnxpool_tuning_table_name halide_target cpu_variant out_var)
  if(halide_target MATCHES "cuda")
    set(name cuda)
  elseif(halide_target MATCHES "opencl")
    set(name opencl)
  elseif(halide_target MATCHES "^arm-64")
    set(name arm64)
  elseif(cpu_variant STREQUAL "kAvx512")
    set(name x86-64-avx512)
  elseif(cpu_variant STREQUAL "kAvx2")
    set(name x86-64-avx2)
  else()
    set(name x86-64-sse41)
  endif()
  set(${out_var} ${name} PARENT_SCOPE)
endfunction()

# Reads <table>.json once (configure re-runs when it changes).
function(onnxpool_load_tuning_table table)
  get_property(loaded GLOBAL PROPERTY ONNXPOOL_TUNING_TABLE_${table} SET)
  if(loaded)
    return()
  endif()
  set(file "${ONNXPOOL_TUNED_DIR}/${table}.json")
  set(content "")
  if(EXISTS "${file}" AND NOT ONNXPOOL_HAND_SCHEDULES_ONLY)
    file(READ "${file}" content)
    set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${file}")
    string(JSON format ERROR_VARIABLE error GET "${content}" format)
    if(error OR NOT format EQUAL 1)
      message(FATAL_ERROR "onnxpool: ${file} is not a format-1 tuning table (${error}); "
                          "rewrite it with tools/tune.sh or remove it")
    endif()
  endif()
  set_property(GLOBAL PROPERTY ONNXPOOL_TUNING_TABLE_${table} "${content}")
endfunction()

# Sets out_var to the recorded knobs of kernel `kernel` in `table` as
# generator arguments (name=value ...), empty for the hand defaults.
# With RUNTIME, the table's "runtime" row instead (`kernel` unused).
function(onnxpool_tuned_knobs table kernel out_var)
  cmake_parse_arguments(ARG "RUNTIME" "" "" ${ARGN})
  onnxpool_load_tuning_table(${table})
  get_property(content GLOBAL PROPERTY ONNXPOOL_TUNING_TABLE_${table})
  set(row kernels ${kernel})
  if(ARG_RUNTIME)
    set(row runtime)
  endif()
  set(args "")
  if(NOT content STREQUAL "")
    if(ONNXPOOL_TUNED_FOR STREQUAL "")
      string(JSON knobs ERROR_VARIABLE missing GET "${content}" ${row} knobs)
    else()
      string(JSON knobs ERROR_VARIABLE missing GET "${content}" ${row} by_cpu "${ONNXPOOL_TUNED_FOR}" knobs)
    endif()
    if(NOT missing)
      string(JSON count LENGTH "${knobs}")
      if(count GREATER 0)
        math(EXPR last "${count} - 1")
        foreach(i RANGE ${last})
          string(JSON key MEMBER "${knobs}" ${i})
          string(JSON value GET "${knobs}" ${key})
          if(value STREQUAL "ON")
            set(value true)
          elseif(value STREQUAL "OFF")
            set(value false)
          endif()
          list(APPEND args "${key}=${value}")
        endforeach()
      endif()
    endif()
  endif()
  set(${out_var} "${args}" PARENT_SCOPE)
endfunction()

# The run-time knobs (runtime/dispatch/runtime_knobs.h) a table's "runtime" row sets.
set(ONNXPOOL_RUNTIME_KNOB_NAMES
    min_outputs_per_task min_inputs_per_task tasks_per_thread max_rows_per_task flat_plane_width_limit
    max_flat_plane_area long_plane_size)

# Sets out_var to `table`'s run-time knobs as name=value ..., empty for the
# hand defaults: the "runtime" row's winner over every recorded CPU, or
# ONNXPOOL_TUNED_FOR's.
function(onnxpool_tuned_runtime_knobs table out_var)
  onnxpool_tuned_knobs(${table} "" args RUNTIME)
  foreach(arg IN LISTS args)
    string(REGEX REPLACE "=.*" "" name "${arg}")
    string(REGEX REPLACE "^[^=]*=" "" value "${arg}")
    if(NOT name IN_LIST ONNXPOOL_RUNTIME_KNOB_NAMES OR NOT value MATCHES "^[1-9][0-9]*$")
      message(FATAL_ERROR "onnxpool: ${ONNXPOOL_TUNED_DIR}/${table}.json: runtime knob '${arg}' is not one of "
                          "${ONNXPOOL_RUNTIME_KNOB_NAMES} with a positive integer value")
    endif()
  endforeach()
  set(${out_var} "${args}" PARENT_SCOPE)
endfunction()

# The autoscheduler plugin built from the frozen schedule <stem>
# (generators/schedules/frozen/<stem>.cpp, written by tools/tune.sh when an
# autoscheduled candidate won; generators/schedules/frozen_schedule.h).
# Sets out_var to the plugin's target (empty in a cross build) and path_var
# to its file (a known path, not a generator expression: the kernel manifest
# records it too).
#
# A plugin runs inside the generator, so it is host code built beside it. A
# build that builds its generator builds one for every frozen schedule in the
# tree, its own targets' or not (onnxpool_build_every_frozen_schedule); a
# build that imports the generator from another (onnxpool-halide_generators_ROOT:
# the ARM64 cross build, the sanitizer and CUDA builds) loads that build's
# plugins.
function(onnxpool_frozen_schedule_plugin stem out_var path_var)
  get_filename_component(frozen_dir "${ONNXPOOL_TUNED_DIR}/../frozen" ABSOLUTE)
  set(source "${frozen_dir}/${stem}.cpp")
  if(NOT EXISTS "${source}")
    message(FATAL_ERROR "onnxpool: a tuning table names the frozen schedule ${stem}, but ${source} is missing; "
                        "tune again with tools/tune.sh, or configure with -DONNXPOOL_HAND_SCHEDULES_ONLY=ON")
  endif()
  if(DEFINED onnxpool-halide_generators_ROOT)
    set(plugin "${onnxpool-halide_generators_ROOT}/frozen_schedules/${stem}.so")
    if(NOT EXISTS "${plugin}")
      message(FATAL_ERROR "onnxpool: frozen schedule ${stem}: ${plugin} is missing. A build that imports the "
                          "generator loads the frozen schedules built by the build it imports it from: build that "
                          "one first (tools/setup.sh, or cmake --build ${onnxpool-halide_generators_ROOT}), after "
                          "any change to ${frozen_dir}")
    endif()
    set(${out_var} "" PARENT_SCOPE)
    set(${path_var} "${plugin}" PARENT_SCOPE)
    return()
  endif()
  string(MAKE_C_IDENTIFIER "onnxpool_frozen_${stem}" target)
  set(plugin_dir "${CMAKE_BINARY_DIR}/frozen_schedules")
  if(NOT TARGET ${target})
    add_library(${target} MODULE "${source}")
    target_include_directories(${target} PRIVATE "${PROJECT_SOURCE_DIR}/generators/schedules")
    target_link_libraries(${target} PRIVATE Halide::Halide)
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY "${plugin_dir}" PREFIX "" OUTPUT_NAME "${stem}"
                                               SUFFIX ".so")
  endif()
  set(${out_var} ${target} PARENT_SCOPE)
  set(${path_var} "${plugin_dir}/${stem}.so" PARENT_SCOPE)
endfunction()

# A build that builds its generator builds every frozen schedule's plugin in
# the tree, so that a build importing its generator (another target's, e.g.
# ARM64) finds the ones its tables name.
function(onnxpool_build_every_frozen_schedule)
  if(DEFINED onnxpool-halide_generators_ROOT OR ONNXPOOL_HAND_SCHEDULES_ONLY)
    return()
  endif()
  get_filename_component(frozen_dir "${ONNXPOOL_TUNED_DIR}/../frozen" ABSOLUTE)
  file(GLOB sources CONFIGURE_DEPENDS "${frozen_dir}/*.cpp")
  foreach(source IN LISTS sources)
    get_filename_component(stem "${source}" NAME_WLE)
    onnxpool_frozen_schedule_plugin("${stem}" plugin plugin_path)
  endforeach()
endfunction()

# The generator arguments and dependencies of a kernel's knobs (as
# onnxpool_tuned_knobs gives them): each knob is a generator parameter,
# except frozen_schedule=<stem>, which loads that frozen schedule's plugin as
# the generator's autoscheduler in place of the hand schedule.
function(onnxpool_knob_generator_args knobs args_var depends_var)
  set(args "")
  set(depends "")
  foreach(knob IN LISTS knobs)
    if(knob MATCHES "^frozen_schedule=(.+)$")
      onnxpool_frozen_schedule_plugin("${CMAKE_MATCH_1}" plugin plugin_path)
      list(APPEND args -p "${plugin_path}" autoscheduler=OnnxpoolFrozen)
      # The plugin's target in a host build; the host build's file in a cross build.
      if(plugin)
        list(APPEND depends ${plugin})
      else()
        list(APPEND depends "${plugin_path}")
      endif()
    else()
      list(APPEND args "${knob}")
    endif()
  endforeach()
  set(${args_var} "${args}" PARENT_SCOPE)
  set(${depends_var} "${depends}" PARENT_SCOPE)
endfunction()
