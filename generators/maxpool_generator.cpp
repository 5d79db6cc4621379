// MaxPool (ONNX opset 22), with the optional Indices output: the algorithm.
// One pipeline per (element type, spatial rank) serves every kernel, stride,
// dilation and padding at run time; the schedule lives in schedules/.
#include "Halide.h"
#include "max_keys.h"
#include "schedules/cpu_schedule.h"
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

class MaxPool : public Halide::Generator<MaxPool> {
 public:
  GeneratorParam<Halide::Type> element_type{"element_type", Halide::Float(32)};
  GeneratorParam<int> spatial_rank{"spatial_rank", 2, 1, 3};
  GeneratorParam<bool> with_indices{"with_indices", false};

  void configure() {
    const int rank = spatial_rank;
    input_ = add_input<Halide::Buffer<void>>("input", element_type, rank + 1);
    dims_ = add_window_inputs(this, rank);
    rows_per_task_ = add_input<int>("rows_per_task");
    rows_clamp_safe_ = add_input<bool>("rows_clamp_safe");
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
    const int rank = spatial_rank;
    const Halide::Type type = element_type;
    SeparablePool pool;
    pool.spatial_rank = rank;
    pool.vars = make_pool_vars(rank, "");
    pool.dims = dims_;
    pool.rows_per_task = *rows_per_task_;
    pool.rows_clamp_safe = *rows_clamp_safe_;
    pool.accumulator_type = key_type(type);
    const std::vector<Halide::Var>& v = pool.vars;
    Halide::Var x = v[0], plane = v[rank];
    Expr width = input_->dim(0).extent();
    Expr lowest = lowest_key(type);

    Func key("key");
    key(v) = to_key((*input_)(v));

    // Stage 1: reduce over every spatial axis but x. Taps outside the input
    // are skipped by the `where` (clamping only keeps bounds inference exact).
    Func column("rows");
    Expr column_row = Expr(0);  // row-major flat position of the row, over axes >= 1
    if (rank > 1) {
      Halide::Region taps;
      for (int i = 1; i < rank; ++i) taps.push_back({0, *dims_[i].kernel});
      pool.row_taps = Halide::RDom(taps, "row_tap");
      std::vector<Expr> at = {x};
      Expr inside = Halide::Internal::const_true();
      for (int i = 1; i < rank; ++i) {
        Expr tap = dims_[i].tap(v[i], pool.row_taps[i - 1]);
        Expr extent = input_->dim(i).extent();
        inside = inside && tap >= 0 && tap < extent;
        at.push_back(Halide::clamp(tap, 0, extent - 1));
      }
      at.push_back(plane);
      // Max is idempotent, so when every window has a tap inside the input and
      // no dilation, a clamped tap repeats a row of the same window: the
      // runtime says so and the schedule drops the per-tap test.
      pool.row_taps.where(inside || *rows_clamp_safe_);
      for (int i = rank - 1; i >= 1; --i) column_row = column_row * input_->dim(i).extent() + at[i];
      if (with_indices) {
        column(v) = Tuple(lowest, kNoTap);
        column(v) = argmax_step(column(v), key(at), column_row);
      } else {
        column(v) = lowest;
        column(v) = Halide::max(column(v), key(at));
      }
    } else if (with_indices) {
      column(v) = Tuple(key(v), Expr(0));
    } else {
      column(v) = key(v);
    }

    // Stage 2: the row padded with the identity on both sides of x.
    Halide::Region x_bound(rank + 1);
    x_bound[0] = {0, width};
    Func padded = with_indices
        ? Halide::BoundaryConditions::constant_exterior(column, Tuple(lowest, kNoTap), x_bound)
        : Halide::BoundaryConditions::constant_exterior(column, lowest, x_bound);
    pool.padded_row = Func("padded_row");
    pool.padded_row(v) = padded(v);

    // Stage 3: reduce along x.
    pool.x_taps = Halide::RDom(0, *dims_[0].kernel, "x_tap");
    std::vector<Expr> at(v.begin(), v.end());
    at[0] = dims_[0].tap(x, pool.x_taps);
    pool.window = Func("window");
    if (with_indices) {
      Tuple tap = pool.padded_row(at);
      Expr flat = Halide::select(tap[1] == kNoTap, kNoTap, tap[1] * width + at[0]);
      pool.window(v) = Tuple(lowest, kNoTap);
      pool.window(v) = argmax_step(pool.window(v), tap[0], flat);
    } else {
      pool.window(v) = lowest;
      pool.window(v) = Halide::max(pool.window(v), pool.padded_row(at));
    }

    Func out = *output_;
    if (with_indices) {
      Expr flat = pool.window(v)[1];
      out(v) = Tuple(from_key(pool.window(v)[0], type),
                     Halide::select(flat == kNoTap, Expr(int64_t(-1)), global_index(flat, plane)));
    } else {
      out(v) = from_key(pool.window(v), type);
    }
    pool.rows = rank > 1 ? column : Func();
    if (rank == 1) column.compute_inline();
    pool.output = out;
    if (with_indices) pool.output_specializations.push_back(!*column_major_);

    set_estimates(rank);
    schedule_separable_pool_cpu(pool, get_target());
  }

 private:
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
    // ResNet's stem: 64 planes of 112 x 112 (x 16 frames in 3D), 3x3/s2.
    static const int kExtents[] = {112, 112, 16};
    Halide::Region input_region, output_region;
    for (int i = 0; i < rank; ++i) {
      input_region.push_back({0, kExtents[i]});
      output_region.push_back({0, kExtents[i] / 2});
    }
    input_region.push_back({0, 64});
    output_region.push_back({0, 64});
    input_->set_estimates(input_region);
    output_->set_estimates(output_region);
    set_window_estimates(dims_);
    rows_per_task_->set_estimate(8);
    rows_clamp_safe_->set_estimate(true);
    if (with_indices) {
      first_plane_->set_estimate(0);
      column_major_->set_estimate(false);
    }
  }

  Input<Halide::Buffer<void>>* input_ = nullptr;
  std::vector<WindowDim> dims_;
  Input<int>* rows_per_task_ = nullptr;
  Input<bool>* rows_clamp_safe_ = nullptr;
  Input<int64_t>* first_plane_ = nullptr;
  Input<bool>* column_major_ = nullptr;
  Output<Halide::Buffer<void>>* output_ = nullptr;
};

}  // namespace
}  // namespace onnxpool::gen

HALIDE_REGISTER_GENERATOR(onnxpool::gen::MaxPool, onnxpool_maxpool)
