// GlobalLpPool (ONNX opset 22): (sum over the plane of |x|^p)^(1/p), with
// LpPool's three algorithms (lppool_generator.cpp): wide, in a wide enough
// type; float32, after the range check (GlobalLpPool S7, float32, 1 thread:
// 7.9 us wide, 5.4 us range check and float32 sum); or scaled by the plane's
// largest magnitude m, m * (sum (|x|/m)^p)^(1/p), which costs a second pass
// over the plane.
#include "Halide.h"
#include "accumulation.h"
#include "global_reduction.h"
#include "schedules/schedule.h"

namespace onnxpool::gen {
namespace {

class GlobalLpPool : public TunableGenerator<GlobalLpPool> {
 public:
  GeneratorParam<Halide::Type> element_type{"element_type", Halide::Float(32)};
  GeneratorParam<LpAlgorithm> algorithm{"algorithm", LpAlgorithm::kWide, kLpAlgorithmNames};

  void configure() {
    input_ = add_input<Halide::Buffer<void>>("input", element_type, 2);
    p_ = add_input<int>("p");
    planes_per_task_ = add_input<int>("planes_per_task");
    output_ = add_output<Halide::Buffer<void>>("output", element_type, 1);
  }

  void generate() {
    const Halide::Type type = element_type;
    const Halide::Type acc = algorithm == LpAlgorithm::kWide ? unscaled_lp_sum_type(type) : sum_type(type);
    const Halide::Expr p = *p_;
    const Halide::Expr zero = additive_identity(acc);  // -0.0: also the identity of max over magnitudes
    GlobalPool pool = make_global_pool(*input_, *planes_per_task_, acc, global_blocking(get_target(), acc, knobs()));
    Halide::Var s = pool.s, plane = pool.plane;
    auto add = [](Halide::Expr a, Halide::Expr b) { return a + b; };
    auto larger = [](Halide::Expr a, Halide::Expr b) { return Halide::max(a, b); };

    Halide::Func magnitude("magnitude");
    magnitude(s, plane) = Halide::abs(convert(acc, (*input_)(s, plane)));
    Halide::Func term("term");
    Halide::Func out = *output_;
    if (algorithm != LpAlgorithm::kScaled) {
      term(s, plane) = integer_power(magnitude(s, plane), p);
      Halide::Func total = add_global_reduction(pool, "sum", zero, add, term).total;
      out(plane) = convert(type, integer_root(total(plane), p));
    } else {
      Halide::Func largest = add_global_reduction(pool, "largest", zero, larger, magnitude).total;
      Halide::Expr scale = magnitude_scale(largest(plane));
      term(s, plane) = integer_power(magnitude(s, plane) / scale, p);
      Halide::Func total = add_global_reduction(pool, "scaled_sum", zero, add, term).total;
      out(plane) = convert(type, scale * integer_root(total(plane), p));
    }
    pool.output = out;
    if (!lp_kernel_only_for_large_p(algorithm, type)) {
      for (int fixed : kFixedPowers) pool.output_specializations.push_back(p == fixed);
    }

    set_global_estimates(*input_, *output_, *planes_per_task_, 196, 256);
    p_->set_estimate(2);
    schedule_global_pool(pool, get_target(), knobs());
  }

 private:
  Input<Halide::Buffer<void>>* input_ = nullptr;
  Input<int>* p_ = nullptr;
  Input<int>* planes_per_task_ = nullptr;
  Output<Halide::Buffer<void>>* output_ = nullptr;
};

}  // namespace
}  // namespace onnxpool::gen

HALIDE_REGISTER_GENERATOR(onnxpool::gen::GlobalLpPool, onnxpool_globallppool)
