// GlobalMaxPool (ONNX opset 22): the largest value of each plane, with
// MaxPool's order and NaN policy (order-preserving keys, max_keys.h).
#include "Halide.h"
#include "global_reduction.h"
#include "max_keys.h"
#include "schedules/schedule.h"

namespace onnxpool::gen {
namespace {

class GlobalMaxPool : public TunableGenerator<GlobalMaxPool> {
 public:
  GeneratorParam<Halide::Type> element_type{"element_type", Halide::Float(32)};

  void configure() {
    input_ = add_input<Halide::Buffer<void>>("input", element_type, 2);
    planes_per_task_ = add_input<int>("planes_per_task");
    output_ = add_output<Halide::Buffer<void>>("output", element_type, 1);
  }

  void generate() {
    const Halide::Type type = element_type;
    const Halide::Type keys = key_type(type);
    GlobalPool pool = make_global_pool(*input_, *planes_per_task_, keys, global_blocking(get_target(), keys, knobs()));
    Halide::Func key("key");
    key(pool.s, pool.plane) = to_key((*input_)(pool.s, pool.plane), /*one_nan_key=*/false);
    auto larger = [](Halide::Expr a, Halide::Expr b) { return Halide::max(a, b); };
    Halide::Func total = add_global_reduction(pool, "max", lowest_key(type), larger, key, CombineOrder::kFree).total;
    Halide::Func out = *output_;
    out(pool.plane) = from_key(total(pool.plane), type);
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

HALIDE_REGISTER_GENERATOR(onnxpool::gen::GlobalMaxPool, onnxpool_globalmaxpool)
