// LpPool (ONNX opset 22): (sum over the taps inside X of |x|^p)^(1/p), the
// algorithm. One pipeline per (element type, spatial rank, algorithm) serves
// every attribute and p at run time.
//
// Three algorithms (LpAlgorithm, accumulation.h), picked by the runtime
// (runtime/lp_pool.cpp):
// - wide: sums |x|^p in a type so much wider than X's that nothing can
//   overflow or underflow for that p (float64 for float32 and bfloat16,
//   float32 for float16).
// - float32: sums in float32, twice the vector lanes of float64, for inputs
//   whose every nonzero |x|^p the range check (lp_range_generator.cpp) found
//   to be a normal float32 with room for the whole window's sum. LpPool S6
//   (float32, 1 thread): 83.5 us wide, 55 us range check and float32 sum.
// - scaled: divides each window's taps by its largest magnitude m and
//   returns m * (sum (|x|/m)^p)^(1/p), finite whenever the exact result is,
//   for any type and p. It stays separable: each row entry is scaled by its
//   own column's largest magnitude r, and the window rescales it by (r/m)^p.
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

Tuple add(const Tuple& total, const Tuple& tap) { return Tuple(total[0] + tap[0]); }
Tuple larger(const Tuple& best, const Tuple& tap) { return Tuple(Halide::max(best[0], tap[0])); }

class LpPool : public TunableGenerator<LpPool> {
 public:
  GeneratorParam<Halide::Type> element_type{"element_type", Halide::Float(32)};
  GeneratorParam<int> spatial_rank{"spatial_rank", 2, 1, 3};
  GeneratorParam<LpAlgorithm> algorithm{"algorithm", LpAlgorithm::kWide, kLpAlgorithmNames};

  void configure() {
    const int rank = spatial_rank;
    input_ = add_input<Halide::Buffer<void>>("input", element_type, rank + 1);
    dims_ = add_window_inputs(this, rank);
    p_ = add_input<int>("p");
    rows_per_task_ = add_input<int>("rows_per_task");
    output_ = add_output<Halide::Buffer<void>>("output", element_type, rank + 1);
  }

  void generate() {
    const int rank = spatial_rank;
    const Halide::Type type = element_type;
    const Halide::Type acc = algorithm == LpAlgorithm::kWide ? unscaled_lp_sum_type(type) : sum_type(type);
    const Expr p = *p_;
    const Expr zero = additive_identity(acc);  // -0.0: also the identity of max over magnitudes
    SeparablePool pool = make_separable_pool(*input_, *output_, rank, dims_, *rows_per_task_, acc);
    pool.test_fault = knobs().test_fault;
    const std::vector<Halide::Var>& v = pool.vars;

    Func magnitude("magnitude");
    magnitude(v) = Halide::abs(convert(acc, (*input_)(v)));

    Func out = *output_;
    if (algorithm != LpAlgorithm::kScaled) {
      TapReduction sum{"sum", {zero}, add};
      sum.row_tap = [&](const std::vector<Expr>& at, const std::vector<Expr>&) {
        return Tuple(integer_power(magnitude(at), p));
      };
      Func window = add_separable_reduction(pool, sum).window;
      out(v) = convert(type, integer_root(window(v), p));
    } else {
      TapReduction largest{"largest", {zero}, larger};
      largest.row_tap = [&](const std::vector<Expr>& at, const std::vector<Expr>&) { return Tuple(Expr(magnitude(at))); };
      const SeparableStages& largest_stages = add_separable_reduction(pool, largest);
      Func column_largest = largest_stages.rows, window_largest = largest_stages.window;

      TapReduction sum{"scaled_sum", {zero}, add};
      sum.row_tap = [&](const std::vector<Expr>& at, const std::vector<Expr>& row) {
        return Tuple(integer_power(magnitude(at) / magnitude_scale(column_largest(row)), p));
      };
      // A column whose largest magnitude r is 0 sums to 0 and stays 0; one
      // with r = inf holds inf and gives inf, as the exact sum does.
      sum.window_tap = [&](const Func& rows, const std::vector<Expr>& x_at) {
        Expr ratio = column_largest(x_at) / magnitude_scale(window_largest(v));
        return Tuple(rows(x_at) * integer_power(ratio, p));
      };
      Func window = add_separable_reduction(pool, sum).window;
      out(v) = convert(type, magnitude_scale(window_largest(v)) * integer_root(window(v), p));
    }
    pool.output = out;
    // p = 2 (ONNX's default) and p = 1 get their own loop nests, free of pow,
    // in every kernel that is called with them; a kernel only for large p
    // gets no copies for the common windows either (accumulation.h), nor
    // does a 3D kernel: those ran no faster with them, which tripled their
    // generation (docs/design-decisions.md, "Generation cost").
    const bool only_large_p = lp_kernel_only_for_large_p(algorithm, type);
    pool.common_window_copies = !only_large_p && rank != 3;
    if (!only_large_p) {
      for (int fixed : kFixedPowers) pool.output_specializations.push_back(p == fixed);
    }

    set_pool_estimates(*input_, *output_, rank);
    set_window_estimates(dims_);
    p_->set_estimate(2);
    rows_per_task_->set_estimate(8);
    schedule_separable_pool(pool, get_target(), knobs());
  }

 private:
  Input<Halide::Buffer<void>>* input_ = nullptr;
  std::vector<WindowDim> dims_;
  Input<int>* p_ = nullptr;
  Input<int>* rows_per_task_ = nullptr;
  Output<Halide::Buffer<void>>* output_ = nullptr;
};

}  // namespace
}  // namespace onnxpool::gen

HALIDE_REGISTER_GENERATOR(onnxpool::gen::LpPool, onnxpool_lppool)
