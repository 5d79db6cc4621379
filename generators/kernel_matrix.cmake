# The kernels compiled into the library: one per (operator, element type,
# spatial rank, variant), each covering every run-time attribute value.
# Included from runtime/CMakeLists.txt, whose library target owns the objects.

# ONNX type name -> (Halide type, runtime ElementType enumerator)
set(onnxpool_halide_type_float32 float32)
set(onnxpool_enum_float32 kFloat32)
set(onnxpool_halide_type_float16 float16)
set(onnxpool_enum_float16 kFloat16)
set(onnxpool_halide_type_bfloat16 bfloat16)
set(onnxpool_enum_bfloat16 kBFloat16)
set(onnxpool_halide_type_float64 float64)
set(onnxpool_enum_float64 kFloat64)
set(onnxpool_halide_type_int8 int8)
set(onnxpool_enum_int8 kInt8)
set(onnxpool_halide_type_uint8 uint8)
set(onnxpool_enum_uint8 kUInt8)

foreach(type IN ITEMS float32 float16 bfloat16 float64 int8 uint8)
  foreach(rank IN ITEMS 1 2 3)
    foreach(variant IN ITEMS plain indices)
      set(name "onnxpool_maxpool_${type}_${rank}d")
      set(with_indices false)
      set(variant_enum kPlain)
      if(variant STREQUAL "indices")
        set(name "${name}_indices")
        set(with_indices true)
        set(variant_enum kWithIndices)
      endif()
      onnxpool_add_kernel(
        NAME ${name} GENERATOR onnxpool_maxpool OP kMaxPool TYPE ${onnxpool_enum_${type}}
        RANK ${rank} VARIANT ${variant_enum}
        PARAMS element_type=${onnxpool_halide_type_${type}} spatial_rank=${rank}
               with_indices=${with_indices})
    endforeach()
  endforeach()
  # 2D "same" windows on small planes (runtime/flat_plane.h); on a GPU the
  # separable kernel serves them.
  onnxpool_add_kernel(
    NAME onnxpool_maxpool_${type}_2d_flat GENERATOR onnxpool_maxpool OP kMaxPool TYPE ${onnxpool_enum_${type}}
    RANK 2 VARIANT kFlatPlane CPU_ONLY
    PARAMS element_type=${onnxpool_halide_type_${type}} spatial_rank=2 with_indices=false flat_plane=true)
  # 2D 2x2 stride-2 windows inside the input (runtime/halving.h); CPU only
  # like the flat-plane kernels.
  onnxpool_add_kernel(
    NAME onnxpool_maxpool_${type}_2d_halving GENERATOR onnxpool_maxpool OP kMaxPool TYPE ${onnxpool_enum_${type}}
    RANK 2 VARIANT kHalving CPU_ONLY
    PARAMS element_type=${onnxpool_halide_type_${type}} spatial_rank=2 with_indices=false halving=true)
endforeach()

# The summing operators: float types only (ONNX opset 22). They are compiled
# with strict_float: by default Halide lets LLVM assume no NaN and no inf,
# which turned LpPool's inf into NaN and a float16 NaN into 0.
set(sum_features strict_float)
foreach(type IN ITEMS float32 float16 bfloat16 float64)
  set(halide_type ${onnxpool_halide_type_${type}})
  set(type_enum ${onnxpool_enum_${type}})
  onnxpool_add_kernel(
    NAME onnxpool_averagepool_${type}_2d_flat GENERATOR onnxpool_averagepool OP kAveragePool
    TYPE ${type_enum} RANK 2 VARIANT kFlatPlane CPU_ONLY FEATURES ${sum_features}
    PARAMS element_type=${halide_type} spatial_rank=2 flat_plane=true)
  onnxpool_add_kernel(
    NAME onnxpool_averagepool_${type}_2d_halving GENERATOR onnxpool_averagepool OP kAveragePool
    TYPE ${type_enum} RANK 2 VARIANT kHalving CPU_ONLY FEATURES ${sum_features}
    PARAMS element_type=${halide_type} spatial_rank=2 halving=true)
  foreach(rank IN ITEMS 1 2 3)
    onnxpool_add_kernel(
      NAME onnxpool_averagepool_${type}_${rank}d GENERATOR onnxpool_averagepool OP kAveragePool
      TYPE ${type_enum} RANK ${rank} VARIANT kPlain FEATURES ${sum_features}
      PARAMS element_type=${halide_type} spatial_rank=${rank})
    # float64 has no wider type to sum in unscaled (runtime/lp_pool.cpp).
    if(NOT type STREQUAL "float64")
      onnxpool_add_kernel(
        NAME onnxpool_lppool_${type}_${rank}d GENERATOR onnxpool_lppool OP kLpPool
        TYPE ${type_enum} RANK ${rank} VARIANT kPlain FEATURES ${sum_features}
        PARAMS element_type=${halide_type} spatial_rank=${rank} algorithm=wide)
    endif()
    # float32 sums for the types whose wide sum is float64, run after the
    # range check (generators/lp_range_generator.cpp). CPU only: on a GPU the
    # check would be a second launch and a copy back for little gain.
    if(type STREQUAL "float32" OR type STREQUAL "bfloat16")
      onnxpool_add_kernel(
        NAME onnxpool_lppool_${type}_${rank}d_float32 GENERATOR onnxpool_lppool OP kLpPool CPU_ONLY
        TYPE ${type_enum} RANK ${rank} VARIANT kFloat32Sum FEATURES ${sum_features}
        PARAMS element_type=${halide_type} spatial_rank=${rank} algorithm=float32)
    endif()
    onnxpool_add_kernel(
      NAME onnxpool_lppool_${type}_${rank}d_scaled GENERATOR onnxpool_lppool OP kLpPool
      TYPE ${type_enum} RANK ${rank} VARIANT kScaled FEATURES ${sum_features}
      PARAMS element_type=${halide_type} spatial_rank=${rank} algorithm=scaled)
  endforeach()

  # Global operators see every spatial axis flattened into one (rank 0 here).
  onnxpool_add_kernel(
    NAME onnxpool_globalmaxpool_${type} GENERATOR onnxpool_globalmaxpool OP kGlobalMaxPool
    TYPE ${type_enum} RANK 0 VARIANT kPlain PARAMS element_type=${halide_type})
  onnxpool_add_kernel(
    NAME onnxpool_globalaveragepool_${type} GENERATOR onnxpool_globalaveragepool OP kGlobalAveragePool
    TYPE ${type_enum} RANK 0 VARIANT kPlain FEATURES ${sum_features} PARAMS element_type=${halide_type})
  # Long planes (runtime/plan/long_planes.h): 32 partial sums per plane, so
  # several vector chains (4 on AVX2, 2 on AVX-512) hide the adder's latency;
  # a tuned global_partials replaces this one (it comes later on the
  # generator's command line, where the last value wins).
  onnxpool_add_kernel(
    NAME onnxpool_globalaveragepool_${type}_long GENERATOR onnxpool_globalaveragepool OP kGlobalAveragePool
    TYPE ${type_enum} RANK 0 VARIANT kLongPlanes CPU_ONLY FEATURES ${sum_features}
    PARAMS element_type=${halide_type} global_partials=32 unroll_small_planes=false)
  if(NOT type STREQUAL "float64")
    onnxpool_add_kernel(
      NAME onnxpool_globallppool_${type} GENERATOR onnxpool_globallppool OP kGlobalLpPool
      TYPE ${type_enum} RANK 0 VARIANT kPlain FEATURES ${sum_features} PARAMS element_type=${halide_type} algorithm=wide)
  endif()
  if(type STREQUAL "float32" OR type STREQUAL "bfloat16")
    onnxpool_add_kernel(
      NAME onnxpool_globallppool_${type}_float32 GENERATOR onnxpool_globallppool OP kGlobalLpPool CPU_ONLY
      TYPE ${type_enum} RANK 0 VARIANT kFloat32Sum FEATURES ${sum_features} PARAMS element_type=${halide_type} algorithm=float32)
    # The range check both Lp operators run first; registered under LpPool.
    onnxpool_add_kernel(
      NAME onnxpool_lp_range_${type} GENERATOR onnxpool_lp_range OP kLpPool CPU_ONLY
      TYPE ${type_enum} RANK 0 VARIANT kRangeCheck FEATURES ${sum_features} PARAMS element_type=${halide_type})
  endif()
  onnxpool_add_kernel(
    NAME onnxpool_globallppool_${type}_scaled GENERATOR onnxpool_globallppool OP kGlobalLpPool
    TYPE ${type_enum} RANK 0 VARIANT kScaled FEATURES ${sum_features} PARAMS element_type=${halide_type} algorithm=scaled)
endforeach()
