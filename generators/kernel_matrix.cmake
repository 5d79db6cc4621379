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
endforeach()
