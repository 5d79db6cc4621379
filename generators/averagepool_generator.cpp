// AveragePool (ONNX opset 22): the algorithm. One pipeline per (element type,
// spatial rank) serves every attribute at run time. The divisor is computed
// per output from the window's geometry, not counted tap by tap: the runtime
// passes, per axis, the range whose taps count ([0, in) for
// count_include_pad = 0, [-pad_begin, in + pad_end) for 1). With
// flat_plane, a second pipeline serves 2D "same" windows only
// (flat_plane_pool.h), and with halving a third the 2x2 stride-2 windows
// (halving_pool.h); the runtime prefers those where they apply.
#include "Halide.h"
#include "accumulation.h"
#include "flat_plane_pool.h"
#include "halving_pool.h"
#include "schedules/schedule.h"
#include "separable_pool.h"
#include "window_params.h"

namespace onnxpool::gen {
namespace {

using Halide::Expr;
using Halide::Func;
using Halide::Tuple;

class AveragePool : public TunableGenerator<AveragePool> {
 public:
  GeneratorParam<Halide::Type> element_type{"element_type", Halide::Float(32)};
  GeneratorParam<int> spatial_rank{"spatial_rank", 2, 1, 3};
  GeneratorParam<bool> flat_plane{"flat_plane", false};
  GeneratorParam<bool> halving{"halving", false};

  void configure() {
    const int rank = spatial_rank;
    if (flat_plane && halving) {
      throw Halide::CompileError("onnxpool_averagepool: flat_plane and halving exclude each other");
    }
    if (flat_plane) return configure_flat_plane();
    if (halving) return configure_halving();
    input_ = add_input<Halide::Buffer<void>>("input", element_type, rank + 1);
    dims_ = add_window_inputs(this, rank);
    for (int i = 0; i < rank; ++i) {
      count_begin_.push_back(add_input<int>("count_begin_" + std::to_string(i)));
      count_end_.push_back(add_input<int>("count_end_" + std::to_string(i)));
    }
    rows_per_task_ = add_input<int>("rows_per_task");
    output_ = add_output<Halide::Buffer<void>>("output", element_type, rank + 1);
  }

  void generate() {
    if (flat_plane) return generate_flat_plane();
    if (halving) return generate_halving();
    const int rank = spatial_rank;
    const Halide::Type type = element_type;
    const Halide::Type acc = sum_type(type);
    SeparablePool pool = make_separable_pool(*input_, *output_, rank, dims_, *rows_per_task_, acc);
    pool.test_fault = knobs().test_fault;
    const std::vector<Halide::Var>& v = pool.vars;

    TapReduction sum;
    sum.name = "sum";
    sum.identity = {additive_identity(acc)};
    sum.combine = [](const Tuple& total, const Tuple& tap) { return Tuple(total[0] + tap[0]); };
    sum.row_tap = [&](const std::vector<Expr>& at, const std::vector<Expr>&) {
      return Tuple(convert(acc, (*input_)(at)));
    };
    Func window = add_separable_reduction(pool, sum).window;

    // The divisor is a product of per-axis counts, one reciprocal table per
    // axis shared by every plane: two multiplies per output instead of a
    // divide and the counts' integer math, two of them integer divisions per
    // row (float32, 1 thread: S4 117 -> 95 us, S1 141 -> 121 us).
    // Counts are exact in the accumulator type. The reciprocals' product is
    // formed first, so the mean itself is rounded once: multiplying the sum
    // by each reciprocal in turn rounded twice, which in the subnormal range
    // missed the correctly rounded mean by a whole unit.
    std::vector<Func> inverse_count;
    for (int i = 0; i < rank; ++i) {
      Func f("inverse_count_" + std::to_string(i));
      f(v[i]) = convert(acc, 1) / convert(acc, dims_[i].taps_within(v[i], *count_begin_[i], *count_end_[i]));
      inverse_count.push_back(f);
    }
    pool.per_axis_tables = inverse_count;
    // The outer axes' factor is one value per output row, hoisted out of the x loop.
    Expr scale = inverse_count[0](v[0]);
    if (rank > 1) {
      Expr row_scale = inverse_count[1](v[1]);
      for (int i = 2; i < rank; ++i) row_scale = row_scale * inverse_count[i](v[i]);
      scale = scale * row_scale;
    }
    // 0 * inf = NaN for a window with nothing to count (documented in pooling.h).
    Func out = *output_;
    out(v) = convert(type, window(v) * scale);
    pool.output = out;
    pool.unrolled_geometry_copies = true;

    set_pool_estimates(*input_, *output_, rank);
    set_window_estimates(dims_);
    for (int i = 0; i < rank; ++i) {
      count_begin_[i]->set_estimate(-1);
      count_end_[i]->set_estimate(113);
    }
    rows_per_task_->set_estimate(8);
    schedule_separable_pool(pool, get_target(), knobs());
  }

 private:
  // Input and output are (flat position, plane); the plane's shape and the
  // windows come as scalars.
  void configure_flat_plane() {
    if (spatial_rank != 2) throw Halide::CompileError("onnxpool_averagepool: flat_plane needs spatial_rank=2");
    input_ = add_input<Halide::Buffer<void>>("input", element_type, 2);
    flat_inputs_ = add_flat_plane_inputs(this);
    for (int i = 0; i < 2; ++i) {
      count_begin_.push_back(add_input<int>("count_begin_" + std::to_string(i)));
      count_end_.push_back(add_input<int>("count_end_" + std::to_string(i)));
    }
    output_ = add_output<Halide::Buffer<void>>("output", element_type, 2);
  }

  void generate_flat_plane() {
    const Halide::Type type = element_type;
    const Halide::Type acc = sum_type(type);
    FlatPlanePool pool = make_flat_plane_pool(flat_inputs_, acc);
    FlatReduction sum;
    sum.name = "sum";
    sum.identity = additive_identity(acc);
    sum.combine = [](const Expr& a, const Expr& b) { return a + b; };
    sum.tap = [&](const Expr& i, const Expr& plane) { return convert(acc, (*input_)(i, plane)); };
    Func window = add_flat_reduction(pool, sum).window;

    // The same divisor as the separable pipeline's, formed the same way
    // (x's reciprocal times y's), one table entry per position.
    auto inverse_count = [&](int i, const Expr& o) {
      const FlatAxis axis = flat_inputs_.axis(i);
      Expr count = window_taps_within(o - axis.pad_begin, axis.kernel, 1, *count_begin_[i], *count_end_[i]);
      return convert(acc, 1) / convert(acc, count);
    };
    Func scale = per_position_table(pool, "inverse_count",
                                    [&](const Expr& x, const Expr& y) { return inverse_count(0, x) * inverse_count(1, y); });
    Func out = *output_;
    out(pool.i, pool.plane) = convert(type, window(pool.i, pool.plane) * scale(pool.i));
    pool.output = out;

    set_flat_plane_estimates(*input_, *output_, flat_inputs_);
    for (int i = 0; i < 2; ++i) {
      count_begin_[i]->set_estimate(0);
      count_end_[i]->set_estimate(28);
    }
    schedule_flat_plane_pool(pool, get_target(), knobs());
  }

  // Input and output are (x, y, plane); every window is four taps inside the
  // input, so the divisor is 4 whatever count_include_pad says.
  void configure_halving() {
    if (spatial_rank != 2) throw Halide::CompileError("onnxpool_averagepool: halving needs spatial_rank=2");
    input_ = add_input<Halide::Buffer<void>>("input", element_type, 3);
    rows_per_task_ = add_input<int>("rows_per_task");
    output_ = add_output<Halide::Buffer<void>>("output", element_type, 3);
  }

  // The separable pipeline's sum, bit for bit: each column's two rows, then
  // the two columns, times the reciprocal count (1/4, exact).
  void generate_halving() {
    const Halide::Type type = element_type;
    const Halide::Type acc = sum_type(type);
    HalvingPool pool;
    pool.rows_per_task = *rows_per_task_;
    pool.accumulator_type = acc;
    std::vector<Expr> t = halving_taps(*input_, pool);
    for (Expr& tap : t) tap = convert(acc, tap);
    Func out = *output_;
    out(pool.x, pool.y, pool.plane) = convert(type, ((t[0] + t[2]) + (t[1] + t[3])) * Halide::cast(acc, Expr(0.25f)));
    pool.output = out;

    set_halving_estimates(*input_, *output_, *rows_per_task_);
    schedule_halving_pool(pool, get_target(), knobs());
  }

  Input<Halide::Buffer<void>>* input_ = nullptr;
  std::vector<WindowDim> dims_;
  std::vector<Input<int>*> count_begin_, count_end_;
  Input<int>* rows_per_task_ = nullptr;
  Output<Halide::Buffer<void>>* output_ = nullptr;
  FlatPlaneInputs flat_inputs_;
};

}  // namespace
}  // namespace onnxpool::gen

HALIDE_REGISTER_GENERATOR(onnxpool::gen::AveragePool, onnxpool_averagepool)
