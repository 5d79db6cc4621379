// AveragePool (ONNX opset 22): the algorithm. One pipeline per (element type,
// spatial rank) serves every attribute at run time. The divisor is computed
// per output from the window's geometry, not counted tap by tap: the runtime
// passes, per axis, the range whose taps count ([0, in) for
// count_include_pad = 0, [-pad_begin, in + pad_end) for 1).
#include "Halide.h"
#include "accumulation.h"
#include "schedules/schedule.h"
#include "separable_pool.h"
#include "window_params.h"

namespace onnxpool::gen {
namespace {

using Halide::Expr;
using Halide::Func;
using Halide::Tuple;

class AveragePool : public Halide::Generator<AveragePool> {
 public:
  GeneratorParam<Halide::Type> element_type{"element_type", Halide::Float(32)};
  GeneratorParam<int> spatial_rank{"spatial_rank", 2, 1, 3};

  void configure() {
    const int rank = spatial_rank;
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
    const int rank = spatial_rank;
    const Halide::Type type = element_type;
    const Halide::Type acc = sum_type(type);
    SeparablePool pool = make_separable_pool(*input_, rank, dims_, *rows_per_task_, acc);
    const std::vector<Halide::Var>& v = pool.vars;

    TapReduction sum;
    sum.name = "sum";
    sum.identity = {Halide::Internal::make_zero(acc)};
    sum.combine = [](const Tuple& total, const Tuple& tap) { return Tuple(total[0] + tap[0]); };
    sum.row_tap = [&](const std::vector<Expr>& at, const std::vector<Expr>&) {
      return Tuple(convert(acc, (*input_)(at)));
    };
    Func window = add_separable_reduction(pool, sum).window;

    // A product of per-axis counts; in the accumulator type, where it is exact
    // far beyond any real window and cannot overflow as an int32 product could.
    Expr divisor = convert(acc, 1);
    for (int i = 0; i < rank; ++i) {
      divisor *= convert(acc, dims_[i].taps_within(v[i], *count_begin_[i], *count_end_[i]));
    }
    // 0 / 0 = NaN for a window with nothing to count (documented in pooling.h).
    Func out = *output_;
    out(v) = convert(type, window(v) / divisor);
    pool.output = out;

    set_pool_estimates(*input_, *output_, rank);
    set_window_estimates(dims_);
    for (int i = 0; i < rank; ++i) {
      count_begin_[i]->set_estimate(-1);
      count_end_[i]->set_estimate(113);
    }
    rows_per_task_->set_estimate(8);
    schedule_separable_pool(pool, get_target());
  }

 private:
  Input<Halide::Buffer<void>>* input_ = nullptr;
  std::vector<WindowDim> dims_;
  std::vector<Input<int>*> count_begin_, count_end_;
  Input<int>* rows_per_task_ = nullptr;
  Output<Halide::Buffer<void>>* output_ = nullptr;
};

}  // namespace
}  // namespace onnxpool::gen

HALIDE_REGISTER_GENERATOR(onnxpool::gen::AveragePool, onnxpool_averagepool)
