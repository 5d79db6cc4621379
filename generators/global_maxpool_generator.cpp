// GlobalMaxPool (ONNX opset 22): the largest value of each plane, with
// MaxPool's order and NaN policy (order-preserving keys, max_keys.h).
#include "Halide.h"
#include "global_reduction.h"
#include "max_keys.h"
#include "schedules/global_cpu_schedule.h"

namespace onnxpool::gen {
namespace {

class GlobalMaxPool : public Halide::Generator<GlobalMaxPool> {
 public:
  GeneratorParam<Halide::Type> element_type{"element_type", Halide::Float(32)};

  void configure() {
    input_ = add_input<Halide::Buffer<void>>("input", element_type, 2);
    planes_per_task_ = add_input<int>("planes_per_task");
    output_ = add_output<Halide::Buffer<void>>("output", element_type, 1);
  }

  void generate() {
    const Halide::Type type = element_type;
    GlobalPool pool;
    pool.plane_size = input_->dim(0).extent();
    pool.accumulator_type = key_type(type);
    pool.lanes = global_lanes(get_target(), pool.accumulator_type);
    pool.planes_per_task = *planes_per_task_;
    Halide::Func key("key");
    key(pool.s, pool.plane) = to_key((*input_)(pool.s, pool.plane), /*one_nan_key=*/false);
    auto larger = [](Halide::Expr a, Halide::Expr b) { return Halide::max(a, b); };
    Halide::Func total = add_global_reduction(pool, "max", lowest_key(type), larger, key).total;
    Halide::Func out = *output_;
    out(pool.plane) = from_key(total(pool.plane), type);
    pool.output = out;

    input_->set_estimates({{0, 49}, {0, 2048}});
    output_->set_estimates({{0, 2048}});
    planes_per_task_->set_estimate(256);
    schedule_global_pool_cpu(pool, get_target());
  }

 private:
  Input<Halide::Buffer<void>>* input_ = nullptr;
  Input<int>* planes_per_task_ = nullptr;
  Output<Halide::Buffer<void>>* output_ = nullptr;
};

}  // namespace
}  // namespace onnxpool::gen

HALIDE_REGISTER_GENERATOR(onnxpool::gen::GlobalMaxPool, onnxpool_globalmaxpool)
