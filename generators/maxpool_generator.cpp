// MaxPool (ONNX opset 22), with the optional Indices output: the algorithm.
// One pipeline per (element type, spatial rank) serves every kernel, stride,
// dilation and padding at run time; the schedule lives in schedules/. With
// flat_plane, a second pipeline serves 2D "same" windows only
// (flat_plane_pool.h), and with halving a third the 2x2 stride-2 windows
// (halving_pool.h); the runtime prefers those where they apply.
#include "Halide.h"
#include "flat_plane_pool.h"
#include "float_maximum.h"
#include "halving_pool.h"
#include "max_keys.h"
#include "schedules/schedule.h"
#include "separable_pool.h"
#include "window_params.h"

namespace onnxpool::gen {
namespace {

using Halide::Expr;
using Halide::Func;
using Halide::Tuple;

// Marks "no input tap seen yet" in a row-major flat position.
const Expr kNoTap = Expr(INT32_MAX);

// Argmax step for (key, flat position) pairs. Taps arrive in scan order within
// a stage, and across stages the smaller flat position is the earlier tap, so
// the first maximum in scan order wins every tie.
Tuple argmax_step(const Tuple& best, const Expr& key, const Expr& flat) {
  Expr take = key > best[0] || (key == best[0] && flat < best[1]);
  return Tuple(Halide::select(take, key, best[0]), Halide::select(take, flat, best[1]));
}

class MaxPool : public TunableGenerator<MaxPool> {
 public:
  GeneratorParam<Halide::Type> element_type{"element_type", Halide::Float(32)};
  GeneratorParam<int> spatial_rank{"spatial_rank", 2, 1, 3};
  GeneratorParam<bool> with_indices{"with_indices", false};
  GeneratorParam<bool> flat_plane{"flat_plane", false};
  GeneratorParam<bool> halving{"halving", false};

  void configure() {
    const int rank = spatial_rank;
    if (flat_plane && halving) throw Halide::CompileError("onnxpool_maxpool: flat_plane and halving exclude each other");
    if (flat_plane) return configure_flat_plane();
    if (halving) return configure_halving();
    input_ = add_input<Halide::Buffer<void>>("input", element_type, rank + 1);
    dims_ = add_window_inputs(this, rank);
    rows_per_task_ = add_input<int>("rows_per_task");
    clamp_safe_ = add_input<bool>("clamp_safe");
    if (with_indices) {
      first_plane_ = add_input<int64_t>("first_plane");
      column_major_ = add_input<bool>("column_major");
      output_ = add_output<Halide::Buffer<void>>(
          "output", std::vector<Halide::Type>{element_type, Halide::Int(64)}, rank + 1);
    } else {
      output_ = add_output<Halide::Buffer<void>>("output", element_type, rank + 1);
    }
  }

  void generate() {
    if (flat_plane) return generate_flat_plane();
    if (halving) return generate_halving();
    const int rank = spatial_rank;
    const Halide::Type type = element_type;
    // Indices kernels step as many lanes as a vector of their 32-bit flat
    // positions holds, not as many as 8- or 16-bit keys would fill: each
    // lane carries a position (and writes an int64). int8 at 32 lanes (AVX2)
    // left 28-wide output rows to the masked narrow path. Measured (AVX2,
    // 1 thread, medians, us, key width -> position width): int8
    // 1x192x28x28 3x3/s1 2550-2730 -> 400-500, int8 1x16x16x56x56 2x2x2/s2
    // 2380-2460 -> 370-490, int8 1x64x112x112 3x3/s2 580-645 -> 640-800;
    // float16 the same within noise. The 8- and 16-bit Indices kernels also
    // generate in about 30% less time.
    Halide::Type lanes_of = key_type(type);
    if (with_indices && lanes_of.bits() < 32) lanes_of = Halide::UInt(32);
    SeparablePool pool = make_separable_pool(*input_, *output_, rank, dims_, *rows_per_task_, lanes_of);
    pool.test_fault = knobs().test_fault;
    // Max is idempotent: when every window is undilated along the row axes
    // and holds a tap inside the input, a tap clamped to the edge repeats a
    // row of its own window. The runtime then sets `clamp_safe`, and the
    // schedule's specialization drops the per-tap test.
    pool.clamp_safe = *clamp_safe_;
    const std::vector<Halide::Var>& v = pool.vars;
    Halide::Var plane = v[rank];
    Expr lowest = lowest_key(type);

    Func key("key");
    key(v) = to_key((*input_)(v), /*one_nan_key=*/with_indices);

    TapReduction reduction;
    reduction.name = "max";
    if (with_indices) {
      reduction.identity = {lowest, kNoTap};
      reduction.combine = [](const Tuple& best, const Tuple& tap) { return argmax_step(best, tap[0], tap[1]); };
      reduction.row_tap = [&](const std::vector<Expr>& at, const std::vector<Expr>&) {
        // Row-major position of the tap within its plane.
        Expr flat = Expr(0);
        for (int i = rank - 1; i >= 0; --i) flat = flat * input_->dim(i).extent() + at[i];
        return Tuple(key(at), flat);
      };
    } else {
      reduction.identity = {lowest};
      reduction.combine = [](const Tuple& best, const Tuple& tap) { return Tuple(Halide::max(best[0], tap[0])); };
      reduction.row_tap = [&](const std::vector<Expr>& at, const std::vector<Expr>&) { return Tuple(Expr(key(at))); };
    }
    const SeparableStages& stages = add_separable_reduction(pool, reduction);
    Func window = stages.window;

    Func out = *output_;
    if (with_indices) {
      Expr flat = window(v)[1];
      out(v) = Tuple(from_key(window(v)[0], type),
                     Halide::select(flat == kNoTap, Expr(int64_t(-1)), global_index(flat, plane)));
    } else {
      out(v) = from_key(window(v), type);
    }
    pool.output = out;
    if (with_indices) pool.output_specializations.push_back(!*column_major_);
    pool.unrolled_geometry_copies = !with_indices;
    // The Indices kernels' argmax combine costs the same in every copy: they
    // ran no faster with the common windows' copies, which tripled their
    // generation (docs/design-decisions.md, "Generation cost").
    pool.common_window_copies = !with_indices;

    set_estimates(rank);
    schedule_separable_pool(pool, get_target(), knobs());
  }

 private:
  // Input and output are (flat position, plane); the plane's shape and the
  // windows come as scalars. No Indices: that variant keeps the separable
  // pipeline.
  void configure_flat_plane() {
    if (spatial_rank != 2 || with_indices) {
      throw Halide::CompileError("onnxpool_maxpool: flat_plane needs spatial_rank=2 and with_indices=false");
    }
    input_ = add_input<Halide::Buffer<void>>("input", element_type, 2);
    flat_inputs_ = add_flat_plane_inputs(this);
    output_ = add_output<Halide::Buffer<void>>("output", element_type, 2);
  }

  void generate_flat_plane() {
    const Halide::Type type = element_type;
    FlatPlanePool pool = make_flat_plane_pool(flat_inputs_, key_type(type));
    Func key("key");
    key(pool.i, pool.plane) = to_key((*input_)(pool.i, pool.plane), /*one_nan_key=*/false);
    FlatReduction reduction;
    reduction.name = "max";
    reduction.identity = lowest_key(type);
    reduction.combine = [](const Expr& a, const Expr& b) { return Halide::max(a, b); };
    reduction.tap = [&](const Expr& i, const Expr& plane) { return key(i, plane); };
    Func window = add_flat_reduction(pool, reduction).window;
    Func out = *output_;
    out(pool.i, pool.plane) = from_key(window(pool.i, pool.plane), type);
    pool.output = out;

    set_flat_plane_estimates(*input_, *output_, flat_inputs_);
    schedule_flat_plane_pool(pool, get_target(), knobs());
  }

  // Input and output are (x, y, plane); the window is implied. No Indices,
  // as for flat_plane.
  void configure_halving() {
    if (spatial_rank != 2 || with_indices) {
      throw Halide::CompileError("onnxpool_maxpool: halving needs spatial_rank=2 and with_indices=false");
    }
    input_ = add_input<Halide::Buffer<void>>("input", element_type, 3);
    rows_per_task_ = add_input<int>("rows_per_task");
    output_ = add_output<Halide::Buffer<void>>("output", element_type, 3);
  }

  // float32 and float64 take the float maximum (float_maximum.h); the
  // 16-bit floats keep the keys (a float max would widen every tap to
  // float32), and integers are their own keys.
  void generate_halving() {
    const Halide::Type type = element_type;
    HalvingPool pool;
    pool.rows_per_task = *rows_per_task_;
    std::vector<Expr> taps = halving_taps(*input_, pool);
    Func out = *output_;
    if (has_float_maximum(type)) {
      pool.accumulator_type = type;
      out(pool.x, pool.y, pool.plane) = float_maximum(taps);
    } else {
      pool.accumulator_type = key_type(type);
      Expr largest = to_key(taps[0], /*one_nan_key=*/false);
      for (size_t i = 1; i < taps.size(); ++i) largest = Halide::max(largest, to_key(taps[i], false));
      out(pool.x, pool.y, pool.plane) = from_key(largest, type);
    }
    pool.output = out;

    set_halving_estimates(*input_, *output_, *rows_per_task_);
    schedule_halving_pool(pool, get_target(), knobs());
  }

  // ONNX Indices: (n * C + c) * prod(spatial) + offset, the offset row-major
  // or, with storage_order = 1, column-major (first spatial axis fastest).
  Expr global_index(const Expr& row_major_flat, const Expr& plane) {
    const int rank = spatial_rank;
    Expr plane_size = Halide::cast<int64_t>(1);
    for (int i = 0; i < rank; ++i) plane_size *= Halide::cast<int64_t>(input_->dim(i).extent());
    Expr column_major_flat = Expr(0);
    Expr rest = row_major_flat;
    Expr stride = Expr(1);
    // Peel coordinates x, y, z off the row-major position; in column-major
    // order the last Halide dimension (ONNX's first spatial axis) is fastest.
    std::vector<Expr> coord(rank);
    for (int i = 0; i < rank; ++i) {
      Expr extent = input_->dim(i).extent();
      coord[i] = i + 1 < rank ? rest % extent : rest;
      rest = rest / extent;
    }
    for (int i = rank - 1; i >= 0; --i) {
      column_major_flat += coord[i] * stride;
      stride *= input_->dim(i).extent();
    }
    Expr offset = Halide::select(*column_major_, column_major_flat, row_major_flat);
    return (Halide::cast<int64_t>(plane) + *first_plane_) * plane_size + Halide::cast<int64_t>(offset);
  }

  void set_estimates(int rank) {
    set_pool_estimates(*input_, *output_, rank);
    set_window_estimates(dims_);
    rows_per_task_->set_estimate(8);
    clamp_safe_->set_estimate(true);
    if (with_indices) {
      first_plane_->set_estimate(0);
      column_major_->set_estimate(false);
    }
  }

  Input<Halide::Buffer<void>>* input_ = nullptr;
  std::vector<WindowDim> dims_;
  Input<int>* rows_per_task_ = nullptr;
  Input<bool>* clamp_safe_ = nullptr;
  Input<int64_t>* first_plane_ = nullptr;
  Input<bool>* column_major_ = nullptr;
  Output<Halide::Buffer<void>>* output_ = nullptr;
  FlatPlaneInputs flat_inputs_;
};

}  // namespace
}  // namespace onnxpool::gen

HALIDE_REGISTER_GENERATOR(onnxpool::gen::MaxPool, onnxpool_maxpool)
