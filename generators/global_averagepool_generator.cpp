// GlobalAveragePool (ONNX opset 22): the mean of each plane, accumulated in
// float32 (float64 for float64).
#include "Halide.h"
#include "accumulation.h"
#include "global_reduction.h"
#include "schedules/schedule.h"

namespace onnxpool::gen {
namespace {

class GlobalAveragePool : public TunableGenerator<GlobalAveragePool> {
 public:
  GeneratorParam<Halide::Type> element_type{"element_type", Halide::Float(32)};

  void configure() {
    input_ = add_input<Halide::Buffer<void>>("input", element_type, 2);
    planes_per_task_ = add_input<int>("planes_per_task");
    output_ = add_output<Halide::Buffer<void>>("output", element_type, 1);
  }

  void generate() {
    const Halide::Type type = element_type;
    const Halide::Type acc = sum_type(type);
    GlobalPool pool = make_global_pool(*input_, *planes_per_task_, acc, global_blocking(get_target(), acc, knobs()));
    Halide::Func value("value");
    value(pool.s, pool.plane) = convert(acc, (*input_)(pool.s, pool.plane));
    auto add = [](Halide::Expr a, Halide::Expr b) { return a + b; };
    Halide::Func total =
        add_global_reduction(pool, "sum", additive_identity(acc), add, value).total;
    Halide::Func out = *output_;
    out(pool.plane) = convert(type, total(pool.plane) / convert(acc, pool.plane_size));
    pool.output = out;

    set_global_estimates(*input_, *output_, *planes_per_task_, 49, 2048);
    schedule_global_pool(pool, get_target(), knobs());
  }

 private:
  Input<Halide::Buffer<void>>* input_ = nullptr;
  Input<int>* planes_per_task_ = nullptr;
  Output<Halide::Buffer<void>>* output_ = nullptr;
};

}  // namespace
}  // namespace onnxpool::gen

HALIDE_REGISTER_GENERATOR(onnxpool::gen::GlobalAveragePool, onnxpool_globalaveragepool)
