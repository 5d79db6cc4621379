#include "hostile_cases.h"

#include <cstdint>
#include <limits>

namespace onnxpool_fuzz {

using onnxpool::ElementType;
using onnxpool::PoolOp;
using Kind = onnxpool::Attributes::Kind;

namespace {

constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

FuzzAttribute ints(const std::string& name, std::vector<int64_t> values) {
  FuzzAttribute a;
  a.name = name;
  a.kind = Kind::kInts;
  a.ints = std::move(values);
  return a;
}

FuzzAttribute integer(const std::string& name, int64_t value) {
  FuzzAttribute a;
  a.name = name;
  a.kind = Kind::kInt;
  a.ints = {value};
  return a;
}

FuzzAttribute text(const std::string& name, const std::string& value) {
  FuzzAttribute a;
  a.name = name;
  a.kind = Kind::kString;
  a.text = value;
  return a;
}

FuzzAttribute real(const std::string& name, float value) {
  FuzzAttribute a;
  a.name = name;
  a.kind = Kind::kFloat;
  a.real = value;
  return a;
}

ApiCase call(PoolOp op, ElementType type, std::vector<int64_t> x_shape, std::vector<FuzzAttribute> attributes,
             uint64_t value_seed = 1) {
  ApiCase c;
  c.op = op;
  c.type = type;
  c.x_shape = std::move(x_shape);
  c.attributes = std::move(attributes);
  c.value_seed = value_seed;
  return c;
}

ApiCase with_indices(ApiCase c) {
  c.with_indices = true;
  return c;
}

template <typename Change>
ApiCase changed(ApiCase c, Change change) {
  change(c);
  return c;
}

std::vector<HostileCase> build() {
  const auto f32 = ElementType::kFloat32;
  const auto f16 = ElementType::kFloat16;
  const auto bf16 = ElementType::kBFloat16;
  const auto f64 = ElementType::kFloat64;
  const auto i8 = ElementType::kInt8;
  const auto u8 = ElementType::kUInt8;
  const auto max = PoolOp::kMaxPool;
  const auto avg = PoolOp::kAveragePool;
  const auto lp = PoolOp::kLpPool;
  const auto gmax = PoolOp::kGlobalMaxPool;
  const auto gavg = PoolOp::kGlobalAveragePool;
  const auto glp = PoolOp::kGlobalLpPool;
  const ApiCase plain_max = call(max, f32, {1, 2, 5, 5}, {ints("kernel_shape", {2, 2})});

  return {
      // Strides and dilations near the integer limits: (k - 1) * d + 1 and
      // o * s overflow int32 and int64 in naive shape arithmetic.
      {"maxpool_dilation_int32_max", call(max, f32, {1, 1, 8}, {ints("kernel_shape", {2}), ints("dilations", {kInt32Max})}),
       Outcome::kRefusedByShape},
      {"maxpool_dilation_int64_max", call(max, f32, {1, 1, 8}, {ints("kernel_shape", {2}), ints("dilations", {kInt64Max})}),
       Outcome::kRefusedByShape},
      // SAME pads for that dilation are 2^63 - 1 in all: valid ONNX (8
      // windows, all in the padding), run once the taps in the padding are gone.
      {"maxpool_dilation_int64_max_same_upper",
       with_indices(call(max, f32, {1, 1, 8},
                         {ints("kernel_shape", {2}), ints("dilations", {kInt64Max}), text("auto_pad", "SAME_UPPER")})),
       Outcome::kRunsAndMatches},
      {"averagepool_dilation_int32_max_same_lower",
       call(avg, f32, {1, 1, 8}, {ints("kernel_shape", {3}), ints("dilations", {kInt32Max}), text("auto_pad", "SAME_LOWER")}),
       Outcome::kRunsAndMatches},
      // Found by api_fuzzer: tap positions in the padding pass int64 (the
      // tests' reference overflowed on them).
      {"averagepool_dilation_int64_max_same_lower",
       call(avg, f32, {1, 1, 8}, {ints("kernel_shape", {3}), ints("dilations", {kInt64Max}), text("auto_pad", "SAME_LOWER")}),
       Outcome::kRunsAndMatches},
      // The same with count_include_pad, whose divisor counts the padding:
      // its windows keep their taps, and positions pass int32.
      {"averagepool_dilation_int32_max_same_lower_count_include_pad",
       call(avg, f32, {1, 1, 8}, {ints("kernel_shape", {3}), ints("dilations", {kInt32Max}), text("auto_pad", "SAME_LOWER"),
                                  integer("count_include_pad", 1)}),
       Outcome::kUnsupportedLimit},
      // A dilation that keeps positions in int32 but spans 1.4e9 of them,
      // which the kernels would buffer (found by api_fuzzer as an internal error).
      {"averagepool_dilation_spanning_2pow30_count_include_pad",
       call(avg, f32, {1, 1, 8}, {ints("kernel_shape", {3}), ints("dilations", {687865855}), text("auto_pad", "SAME_LOWER"),
                                  integer("count_include_pad", 1)}),
       Outcome::kUnsupportedLimit},
      {"averagepool_dilation_spanning_2pow30",
       call(avg, f32, {1, 1, 8}, {ints("kernel_shape", {3}), ints("dilations", {687865855}), text("auto_pad", "SAME_LOWER")}),
       Outcome::kRunsAndMatches},
      {"maxpool_stride_int32_max", with_indices(call(max, f32, {1, 1, 8}, {ints("kernel_shape", {1}), ints("strides", {kInt32Max})})),
       Outcome::kRunsAndMatches},
      {"maxpool_stride_int64_max_ceil",
       with_indices(call(max, f32, {1, 1, 8}, {ints("kernel_shape", {2}), ints("strides", {kInt64Max}), integer("ceil_mode", 1)})),
       Outcome::kRunsAndMatches},
      {"averagepool_stride_int64_max_ceil_pads",
       call(avg, f32, {1, 1, 8}, {ints("kernel_shape", {2}), ints("strides", {kInt64Max}), ints("pads", {1, 1}),
                                  integer("ceil_mode", 1), integer("count_include_pad", 1)}),
       Outcome::kRunsAndMatches},
      {"lppool_stride_int64_max", call(lp, f32, {1, 1, 8, 3}, {ints("kernel_shape", {3, 1}), ints("strides", {kInt64Max, 1})}),
       Outcome::kRunsAndMatches},
      // Pads at least as wide as the kernel: valid ONNX (windows wholly in
      // the padding), which onnxruntime rejects.
      {"maxpool_pads_wider_than_kernel",
       with_indices(call(max, f32, {1, 2, 4, 4}, {ints("kernel_shape", {2, 2}), ints("pads", {3, 3, 3, 3})})),
       Outcome::kRunsAndMatches},
      {"maxpool_int8_pads_wider_than_kernel",
       with_indices(call(max, i8, {1, 2, 3, 4}, {ints("kernel_shape", {2, 1}), ints("pads", {2, 1, 4, 1})})),
       Outcome::kRunsAndMatches},
      {"averagepool_pads_wider_than_kernel",
       call(avg, f16, {1, 2, 4, 4}, {ints("kernel_shape", {2, 2}), ints("pads", {3, 2, 3, 2})}), Outcome::kRunsAndMatches},
      {"averagepool_pads_wider_than_kernel_count_include_pad",
       call(avg, f32, {1, 2, 4, 4}, {ints("kernel_shape", {2, 2}), ints("pads", {3, 3, 3, 3}), integer("count_include_pad", 1)}),
       Outcome::kRunsAndMatches},
      {"lppool_pads_wider_than_kernel",
       call(lp, bf16, {1, 1, 5}, {ints("kernel_shape", {2}), ints("pads", {4, 4}), integer("p", 3)}), Outcome::kRunsAndMatches},
      // No planes, and an output axis past 2^32 long: nothing to compute, so
      // nothing may walk that axis (the cost bound once did, for minutes).
      {"lppool_empty_batch_output_axis_past_2pow32",
       call(lp, bf16, {0, 1, 5}, {ints("kernel_shape", {2}), ints("pads", {0, int64_t{1} << 32})}), Outcome::kRunsAndMatches},
      // No planes, and a plane whose extents multiply past int64 (X holds no
      // element, so the element-count check stops at its zero): the global
      // pools' plane size overflowed (found by api_fuzzer under UBSan), and
      // the reference overflowed counting such an output plane or walked
      // four billion planes without an output position.
      {"globalaveragepool_empty_channels_plane_past_int64",
       call(gavg, bf16, {3, 0, int64_t{1} << 40, int64_t{1} << 40, 5}, {}), Outcome::kRunsAndMatches},
      {"globallppool_empty_batch_plane_past_int64",
       call(glp, f32, {0, 67, 8, int64_t{1} << 60}, {integer("p", 2)}), Outcome::kRunsAndMatches},
      {"maxpool_empty_channels_output_plane_past_int64",
       with_indices(call(max, f32, {1, 0, 2, 0}, {ints("kernel_shape", {1, 2}),
                                                  ints("pads", {int64_t{1} << 48, 1, int64_t{1} << 62, 96})})),
       Outcome::kRunsAndMatches},
      {"averagepool_four_billion_planes_without_outputs",
       call(avg, f64, {(int64_t{1} << 32) + 1, 1, 0, 255},
            {ints("kernel_shape", {5, 1}), ints("strides", {4, 1}), integer("ceil_mode", 1)}),
       Outcome::kRunsAndMatches},
      // Windows wider than the padded input: ONNX's formula still gives 0
      // outputs within a stride (floor) or 1 (ceil_mode); beyond, no shape.
      {"maxpool_kernel_wider_than_input_empty_output",
       with_indices(call(max, f32, {1, 1, 3}, {ints("kernel_shape", {5}), ints("strides", {2})})), Outcome::kRunsAndMatches},
      {"maxpool_kernel_wider_than_input_ceil_mode",
       with_indices(call(max, f32, {1, 1, 3}, {ints("kernel_shape", {5}), ints("strides", {4}), integer("ceil_mode", 1)})),
       Outcome::kRunsAndMatches},
      {"averagepool_kernel_wider_than_input_ceil_mode",
       call(avg, f64, {1, 1, 3, 2}, {ints("kernel_shape", {5, 1}), ints("strides", {4, 1}), integer("ceil_mode", 1)}),
       Outcome::kRunsAndMatches},
      {"maxpool_kernel_wider_than_input_by_more_than_a_stride",
       call(max, f32, {1, 1, 3}, {ints("kernel_shape", {9})}), Outcome::kRefusedByShape},
      {"maxpool_dilations_step_over_the_input",
       with_indices(call(max, u8, {1, 1, 5}, {ints("kernel_shape", {3}), ints("dilations", {4}), ints("pads", {4, 4})})),
       Outcome::kRunsAndMatches},
      // A kernel of 65536 taps over 8 elements (SAME): 8 windows, nearly all
      // taps in the padding.
      {"averagepool_huge_kernel_small_input",
       call(avg, f32, {1, 1, 8}, {ints("kernel_shape", {65536}), text("auto_pad", "SAME_UPPER")}), Outcome::kRunsAndMatches},
      {"maxpool_huge_2d_kernel_small_input",
       call(max, f32, {1, 1, 8, 8}, {ints("kernel_shape", {4096, 4096}), text("auto_pad", "SAME_UPPER")}),
       Outcome::kRunsCostChecked},
      // Output sizes where float rounding of the ceil_mode division breaks
      // (above 2^24 a float32 quotient is no longer exact).
      {"maxpool_ceil_mode_above_2pow24",
       call(max, f32, {1, 1, (int64_t{1} << 24) + 1}, {ints("kernel_shape", {2}), ints("strides", {2}), integer("ceil_mode", 1)}),
       Outcome::kValidButTooLarge},
      {"averagepool_ceil_mode_above_2pow24_pads",
       call(avg, f32, {1, 1, (int64_t{1} << 24) + 3}, {ints("kernel_shape", {3}), ints("strides", {3}), ints("pads", {1, 0}),
                                                       integer("ceil_mode", 1)}),
       Outcome::kValidButTooLarge},
      // Indices whose flat position (n * C + c) * prod(spatial) + offset
      // passes 2^31 and 2^32; outputs past INT_MAX elements.
      {"maxpool_indices_past_2pow31",
       with_indices(call(max, f32, {1 << 16, 1, (1 << 15) + 1}, {ints("kernel_shape", {1})})), Outcome::kValidButTooLarge},
      {"maxpool_indices_past_2pow32",
       with_indices(call(max, u8, {(1 << 17) + 1, 2, 1 << 15}, {ints("kernel_shape", {2}), ints("strides", {2})})),
       Outcome::kValidButTooLarge},
      {"maxpool_output_past_int_max", call(max, i8, {1, 1, 46341, 46341}, {ints("kernel_shape", {1, 1})}),
       Outcome::kValidButTooLarge},
      {"globalaveragepool_plane_past_int_max", call(gavg, f32, {1, 1, 46341, 46341}, {}), Outcome::kValidButTooLarge},
      {"maxpool_element_count_past_int64", call(max, f32, {int64_t{1} << 32, int64_t{1} << 32, 1}, {ints("kernel_shape", {1})}),
       Outcome::kRefusedByShape},
      // The first spatial axis runs in pieces past 2^31 - 1 (runtime/execute/large_planes.h); the others may not pass it.
      {"maxpool_axis_past_int32", call(max, f32, {1, 1, int64_t{1} << 31}, {ints("kernel_shape", {1})}),
       Outcome::kValidButTooLarge},
      {"maxpool_second_axis_past_int32", call(max, f32, {1, 1, 2, int64_t{1} << 31}, {ints("kernel_shape", {1, 1})}),
       Outcome::kUnsupportedLimit},
      {"globalaveragepool_axis_past_int32", call(gavg, f32, {1, 1, 3, int64_t{1} << 31}, {}),
       Outcome::kValidButTooLarge},
      // Attributes ONNX rejects.
      {"maxpool_zero_stride", call(max, f32, {1, 1, 4}, {ints("kernel_shape", {2}), ints("strides", {0})}),
       Outcome::kRefusedByParse},
      {"maxpool_negative_pads", call(max, f32, {1, 1, 4}, {ints("kernel_shape", {2}), ints("pads", {-1, 0})}),
       Outcome::kRefusedByParse},
      {"maxpool_negative_kernel", call(max, f32, {1, 1, 4}, {ints("kernel_shape", {-3})}), Outcome::kRefusedByParse},
      {"maxpool_zero_dilation", call(max, f32, {1, 1, 4}, {ints("kernel_shape", {2}), ints("dilations", {0})}),
       Outcome::kRefusedByParse},
      {"maxpool_without_kernel_shape", call(max, f32, {1, 1, 4}, {ints("strides", {1})}), Outcome::kRefusedByParse},
      {"averagepool_empty_kernel_shape", call(avg, f32, {1, 1, 4}, {ints("kernel_shape", {})}), Outcome::kRefusedByParse},
      {"maxpool_pads_odd_length", call(max, f32, {1, 1, 4, 4}, {ints("kernel_shape", {2, 2}), ints("pads", {1, 1, 1})}),
       Outcome::kRefusedByParse},
      {"maxpool_strides_too_short", call(max, f32, {1, 1, 4, 4}, {ints("kernel_shape", {2, 2}), ints("strides", {1})}),
       Outcome::kRefusedByParse},
      {"maxpool_unknown_auto_pad", call(max, f32, {1, 1, 4}, {ints("kernel_shape", {2}), text("auto_pad", "SAME")}),
       Outcome::kRefusedByParse},
      {"maxpool_storage_order_2", call(max, f32, {1, 1, 4}, {ints("kernel_shape", {2}), integer("storage_order", 2)}),
       Outcome::kRefusedByParse},
      {"maxpool_ceil_mode_2", call(max, f32, {1, 1, 4}, {ints("kernel_shape", {2}), integer("ceil_mode", 2)}),
       Outcome::kRefusedByParse},
      {"averagepool_count_include_pad_minus_1",
       call(avg, f32, {1, 1, 4}, {ints("kernel_shape", {2}), integer("count_include_pad", -1)}), Outcome::kRefusedByParse},
      {"lppool_p_0", call(lp, f32, {1, 1, 4}, {ints("kernel_shape", {2}), integer("p", 0)}), Outcome::kRefusedByParse},
      {"globallppool_p_negative", call(glp, f32, {1, 1, 4}, {integer("p", -2)}), Outcome::kRefusedByParse},
      {"maxpool_unknown_attribute", call(max, f32, {1, 1, 4}, {ints("kernel_shape", {2}), ints("kernel", {2})}),
       Outcome::kRefusedByParse},
      {"averagepool_storage_order", call(avg, f32, {1, 1, 4}, {ints("kernel_shape", {2}), integer("storage_order", 0)}),
       Outcome::kRefusedByParse},
      {"globalmaxpool_kernel_shape", call(gmax, f32, {1, 1, 4}, {ints("kernel_shape", {2})}), Outcome::kRefusedByParse},
      {"maxpool_kernel_shape_as_int", call(max, f32, {1, 1, 4}, {integer("kernel_shape", 2)}), Outcome::kRefusedByParse},
      {"maxpool_strides_as_string", call(max, f32, {1, 1, 4}, {ints("kernel_shape", {2}), text("strides", "1")}),
       Outcome::kRefusedByParse},
      {"lppool_p_as_float", call(lp, f32, {1, 1, 4}, {ints("kernel_shape", {2}), real("p", 2.0f)}), Outcome::kRefusedByParse},
      {"maxpool_attribute_set_twice_last_wins",
       with_indices(call(max, f32, {1, 1, 6}, {ints("kernel_shape", {5}), ints("kernel_shape", {2})})), Outcome::kRunsAndMatches},
      // Found by api_fuzzer: a kernel whose tap count passes int64 over an
      // empty output (the tests' tolerance overflowed counting its taps).
      {"lppool_kernel_taps_past_int64_empty_output",
       call(lp, f32, {1, 1, 8, 0}, {ints("kernel_shape", {9007242187640832, 4096}), text("auto_pad", "SAME_UPPER")}),
       Outcome::kRunsAndMatches},
      // Found by api_fuzzer: a name set again replaces its kind as well.
      {"maxpool_attribute_kind_replaced_by_a_later_set",
       with_indices(call(max, f32, {1, 1, 8}, {ints("kernel_shape", {2}), real("strides", -0.0f), ints("strides", {})})),
       Outcome::kRunsAndMatches},
      // Shapes ONNX rejects.
      {"maxpool_kernel_rank_mismatch", call(max, f32, {1, 1, 4}, {ints("kernel_shape", {2, 2})}), Outcome::kRefusedByShape},
      {"maxpool_rank_2_input", call(max, f32, {1, 4}, {ints("kernel_shape", {2})}), Outcome::kRefusedByShape},
      {"maxpool_negative_dimension", call(max, f32, {1, -1, 4}, {ints("kernel_shape", {2})}), Outcome::kRefusedByShape},
      {"globalmaxpool_rank_2_input", call(gmax, f32, {3, 4}, {}), Outcome::kRefusedByShape},
      {"globalmaxpool_empty_spatial_axis", call(gmax, f32, {1, 1, 0}, {}), Outcome::kRefusedByShape},
      // Valid nodes at the edges of what the kernels see.
      {"maxpool_empty_batch", with_indices(call(max, f32, {0, 3, 4, 4}, {ints("kernel_shape", {2, 2})})), Outcome::kRunsAndMatches},
      // Valid ONNX (windows all in the padding) that the kernels cannot run
      // without an input element (found by api_fuzzer as an internal error):
      // filled without a kernel (runtime/execute/empty_input.h).
      {"maxpool_empty_spatial_axis_with_pads",
       with_indices(call(max, f32, {1, 2, 0, 3}, {ints("kernel_shape", {1, 2}), ints("pads", {1, 0, 1, 0})})),
       Outcome::kRunsAndMatches},
      {"maxpool_empty_spatial_axis_with_pads_int8",
       with_indices(call(max, i8, {1, 2, 3, 0}, {ints("kernel_shape", {2, 2}), ints("pads", {0, 1, 0, 1})})),
       Outcome::kRunsAndMatches},
      {"averagepool_empty_spatial_axis_with_pads",
       call(avg, f32, {2, 1, 0, 2}, {ints("kernel_shape", {2, 1}), ints("pads", {1, 0, 1, 0})}),
       Outcome::kRunsAndMatches},
      // count_include_pad = 1: zeros over the counted padding (ceil_mode
      // drops the second window, which would start in the end padding).
      {"averagepool_empty_spatial_axis_counting_pads",
       call(avg, f16, {1, 1, 0}, {ints("kernel_shape", {2}), ints("pads", {1, 2}), ints("strides", {2}),
                                  integer("count_include_pad", 1), integer("ceil_mode", 1)}),
       Outcome::kRunsAndMatches},
      {"lppool_empty_spatial_axis_with_pads",
       call(lp, f64, {1, 3, 0}, {ints("kernel_shape", {3}), ints("pads", {2, 2}), integer("p", 3)}),
       Outcome::kRunsAndMatches},
      {"averagepool_empty_spatial_axis", call(avg, f32, {1, 1, 0}, {ints("kernel_shape", {1})}), Outcome::kRunsAndMatches},
      {"averagepool_empty_channels", call(avg, f32, {2, 0, 4}, {ints("kernel_shape", {2})}), Outcome::kRunsAndMatches},
      {"globalaveragepool_rank_6", call(gavg, f64, {1, 2, 2, 3, 2, 3}, {}), Outcome::kRunsAndMatches},
      {"globalmaxpool_float16", call(gmax, f16, {2, 3, 7}, {}, 2), Outcome::kRunsAndMatches},
      {"globallppool_p_1", call(glp, bf16, {1, 3, 5, 5}, {integer("p", 1)}), Outcome::kRunsAndMatches},
      // p far above what the reference keeps exact: runs (guards, X
      // unchanged), values not compared.
      {"globallppool_p_int32_max", call(glp, f32, {1, 2, 9}, {integer("p", kInt32Max)}), Outcome::kRunsValuesUnchecked},
      {"lppool_p_int64_max", call(lp, f32, {1, 2, 9}, {ints("kernel_shape", {3}), integer("p", kInt64Max)}),
       Outcome::kRunsValuesUnchecked},
      // Kernels and pads dwarfing X (valid ONNX): one kernel call would
      // evaluate 10^10 taps and more; the call must cost about its taps
      // inside X (runtime/execute/window_segments.h). The plain reference would
      // take minutes, so values are checked by onnxpool_window_segments_test.
      {"maxpool_kernel_and_pads_of_a_million",
       with_indices(call(max, f32, {1, 2, 8}, {ints("kernel_shape", {1000000}), ints("pads", {515000, 515000})})),
       Outcome::kRunsCostChecked},
      {"averagepool_kernel_and_pads_of_a_million_count_include_pad",
       call(avg, f16, {1, 2, 8}, {ints("kernel_shape", {1000000}), ints("pads", {1015001, 1014999}),
                                  integer("count_include_pad", 1), ints("strides", {3}), ints("dilations", {2})}),
       Outcome::kRunsCostChecked},
      // count_include_pad keeps the padding taps, so the kernel's row buffer
      // spans pads_begin: one window 689 million positions before X asked
      // for a 5.5 GB row (api_fuzzer's finding, a kInternal then); such a
      // call now runs in pieces (1D) or segments.
      {"averagepool_count_include_pad_window_far_before_x_1d",
       call(avg, f16, {1, 2, 8}, {ints("kernel_shape", {1000020}), ints("dilations", {2}),
                                  ints("strides", {4294967295}), ints("pads", {688881116, 1023959}),
                                  integer("count_include_pad", 1)}),
       Outcome::kRunsCostChecked},
      // The same along the row axis of a 2D call, small enough to check:
      // the one window's last tap is X's first element, the 512 before it
      // lie 2^20 apart in 2^29 pads, so the row would hold 2^29 + 8 entries.
      {"averagepool_count_include_pad_row_of_2pow29_pads",
       call(avg, f32, {1, 2, 1, 8}, {ints("kernel_shape", {1, 513}), ints("dilations", {1, 1 << 20}),
                                     ints("strides", {1, 4294967296}), ints("pads", {0, 1 << 29, 0, 0}),
                                     integer("count_include_pad", 1)}),
       Outcome::kRunsAndMatches},
      // Windows covering X whose phases modulo the dilation start up to 2^30
      // positions before it: one call per phase would buffer them all.
      {"averagepool_count_include_pad_phases_2pow30_before_x",
       call(avg, f32, {1, 1, 1, 8}, {ints("kernel_shape", {1, 3}), ints("dilations", {1, 1 << 30}),
                                     ints("strides", {1, 1 << 29}), ints("pads", {0, 2147483647, 0, 1 << 30}),
                                     integer("count_include_pad", 1)}),
       Outcome::kRunsAndMatches},
      // 2^29 pads before the row axis of a 3D call, and before its middle axis.
      {"averagepool_count_include_pad_row_of_2pow29_pads_3d",
       call(avg, f32, {1, 1, 2, 3, 8}, {ints("kernel_shape", {2, 1, 513}), ints("dilations", {1, 1, 1 << 20}),
                                        ints("strides", {1, 1, 4294967296}), ints("pads", {1, 0, 1 << 29, 0, 0, 0}),
                                        integer("count_include_pad", 1)}),
       Outcome::kRunsAndMatches},
      {"averagepool_count_include_pad_middle_axis_of_2pow29_pads_3d",
       call(avg, f32, {1, 1, 2, 3, 8}, {ints("kernel_shape", {1, 513, 2}), ints("dilations", {1, 1 << 20, 1}),
                                        ints("strides", {1, 4294967296, 1}), ints("pads", {0, 1 << 29, 0, 0, 0, 0}),
                                        integer("count_include_pad", 1)}),
       Outcome::kRunsAndMatches},
      {"lppool_kernel_and_pads_dwarfing_a_2d_input",
       call(lp, f32, {1, 1, 6, 5}, {ints("kernel_shape", {3000, 2000}), ints("pads", {1540, 1040, 1553, 1054}),
                                    integer("p", 3)}),
       Outcome::kRunsCostChecked},
      {"maxpool_kernel_and_pads_dwarfing_a_3d_input",
       with_indices(call(max, i8, {1, 2, 3, 4, 2}, {ints("kernel_shape", {400, 300, 200}), ints("pads", {215, 160, 105, 213, 160, 108}),
                                                    integer("storage_order", 1)})),
       Outcome::kRunsCostChecked},
      // Caller mistakes in the tensors: refused, nothing written.
      {"maxpool_null_x", changed(plain_max, [](ApiCase& c) { c.mistakes.null_x = true; }), Outcome::kRefusedCall},
      {"maxpool_null_y", changed(plain_max, [](ApiCase& c) { c.mistakes.null_y = true; }), Outcome::kRefusedCall},
      {"maxpool_y_shape_off", changed(plain_max, [](ApiCase& c) { c.mistakes.y_shape_off = true; }), Outcome::kRefusedCall},
      {"maxpool_y_type_off", changed(plain_max, [](ApiCase& c) { c.mistakes.y_type_off = true; }), Outcome::kRefusedCall},
      {"maxpool_indices_not_int64", changed(plain_max, [](ApiCase& c) {
         c.with_indices = true;
         c.mistakes.indices_not_int64 = true;
       }),
       Outcome::kRefusedCall},
      {"averagepool_with_indices", with_indices(call(avg, f32, {1, 1, 4}, {ints("kernel_shape", {2})})), Outcome::kRefusedCall},
      {"maxpool_int64_x", call(max, ElementType::kInt64, {1, 1, 4}, {ints("kernel_shape", {2})}), Outcome::kRefusedCall},
      {"maxpool_unknown_type_code", call(max, static_cast<ElementType>(99), {1, 1, 4}, {ints("kernel_shape", {2})}),
       Outcome::kRefusedCall},
      {"averagepool_int8_x", call(avg, i8, {1, 1, 4}, {ints("kernel_shape", {2})}), Outcome::kRefusedCall},
      {"maxpool_null_x_empty_tensor",
       changed(call(max, f32, {0, 2, 4}, {ints("kernel_shape", {2})}), [](ApiCase& c) { c.mistakes.null_x = true; }),
       Outcome::kRunsAndMatches},
      {"maxpool_two_threads", changed(call(max, f32, {2, 3, 9, 9}, {ints("kernel_shape", {3, 3}), ints("pads", {1, 1, 1, 1})}),
                                      [](ApiCase& c) { c.threads = 2; }),
       Outcome::kRunsAndMatches},
      {"averagepool_caller_pool",
       changed(call(avg, f32, {2, 3, 9, 9}, {ints("kernel_shape", {3, 3}), ints("pads", {1, 1, 1, 1})}),
               [](ApiCase& c) {
                 c.threads = 2;
                 c.caller_pool = true;
               }),
       Outcome::kRunsAndMatches},
  };
}

}  // namespace

const std::vector<HostileCase>& hostile_cases() {
  static const std::vector<HostileCase> cases = build();
  return cases;
}

const char* outcome_name(Outcome outcome) {
  switch (outcome) {
    case Outcome::kRefusedByParse: return "refused by PoolAttributes::parse";
    case Outcome::kRefusedByShape: return "refused by infer_output_shape";
    case Outcome::kUnsupportedLimit: return "unsupported: a documented limit";
    case Outcome::kValidButTooLarge: return "valid, shape checked, too large to run here";
    case Outcome::kRefusedCall: return "refused by the call";
    case Outcome::kRunsAndMatches: return "runs and matches the reference";
    case Outcome::kRunsValuesUnchecked: return "runs, values not compared";
    case Outcome::kRunsCostChecked: return "runs within the cost its taps inside X set, values not compared";
  }
  return "?";
}

}  // namespace onnxpool_fuzz
