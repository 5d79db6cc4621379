// LpPool's range check: for each plane, whether any |x| is nonzero and
// outside [lowest, highest]. The runtime (runtime/float32_lp.cpp) picks the
// bounds so that inside them every |x|^p is a normal float32 and a whole
// window's sum of them cannot overflow, so a plane it does not flag is summed
// exactly enough in float32 (LpAlgorithm::kFloat32) instead of float64. The
// runtime runs it only on the planes whose float32 outputs came out small or
// zero, where terms lost to underflow could matter (runtime/float32_lp.h).
//
// Magnitudes compare as their bit patterns (ordered like the values for
// non-negative floats). One max-reduction of
//   u = 0 for |x| = 0, else bits(|x|) - bits(lowest)   (unsigned, wrapping)
// finds them all: inside the range u is at most bits(highest) - bits(lowest),
// above it larger, below it (nonzero) the subtraction wraps to nearly 2^32.
// NaN's bits lie above every finite bound, so a NaN flags its plane too.
#include "Halide.h"
#include "accumulation.h"
#include "global_reduction.h"
#include "schedules/schedule.h"

namespace onnxpool::gen {
namespace {

// The check's planes can be long (it once ran on merged pooling planes of up
// to 16K elements), so its running maximum is held as four vector steps,
// four independent chains: with one, each step waited on the last step's
// max and blend (the select below, which LLVM moves into the chain). GlobalLpPool 1x256x14x14 float32
// (this check, then the float32 sum), AVX2 on a 2-vCPU AMD EPYC, 1 thread,
// alternating binaries: 18.9-20.7 us with one chain, 8.2-12.7 with four; the
// check went from 56% of the time to 36%.
constexpr int kIndependentChains = 4;

class LpRange : public TunableGenerator<LpRange> {
 public:
  GeneratorParam<Halide::Type> element_type{"element_type", Halide::Float(32)};

  void configure() {
    input_ = add_input<Halide::Buffer<void>>("input", element_type, 2);
    lowest_ = add_input<float>("lowest");
    highest_ = add_input<float>("highest");
    planes_per_task_ = add_input<int>("planes_per_task");
    output_ = add_output<Halide::Buffer<uint8_t>>("output", 1);
  }

  void generate() {
    const Halide::Type bits = Halide::UInt(32);
    GlobalPool pool =
        make_global_pool(*input_, *planes_per_task_, bits,
                         global_blocking(get_target(), bits, knobs(), kIndependentChains));
    Halide::Var s = pool.s, plane = pool.plane;
    Halide::Expr lowest_bits = Halide::reinterpret(bits, *lowest_);
    Halide::Expr highest_bits = Halide::reinterpret(bits, *highest_);
    Halide::Func excess("excess");  // u above
    Halide::Expr magnitude = Halide::reinterpret(bits, convert(Halide::Float(32), (*input_)(s, plane))) &
                             Halide::Expr(0x7FFFFFFFu);
    excess(s, plane) = Halide::select(magnitude == Halide::Expr(0u), Halide::Expr(0u), magnitude - lowest_bits);

    auto larger = [](Halide::Expr a, Halide::Expr b) { return Halide::max(a, b); };
    Halide::Func largest =
        add_global_reduction(pool, "largest_excess", Halide::Expr(0u), larger, excess, CombineOrder::kFree).total;
    Halide::Func out = *output_;
    out(plane) = Halide::cast<uint8_t>(largest(plane) > highest_bits - lowest_bits);
    pool.output = out;

    set_global_estimates(*input_, *output_, *planes_per_task_, 3136, 64);
    lowest_->set_estimate(1e-15f);
    highest_->set_estimate(1e18f);
    schedule_global_pool(pool, get_target(), knobs());
  }

 private:
  Input<Halide::Buffer<void>>* input_ = nullptr;
  Input<float>* lowest_ = nullptr;
  Input<float>* highest_ = nullptr;
  Input<int>* planes_per_task_ = nullptr;
  Output<Halide::Buffer<uint8_t>>* output_ = nullptr;
};

}  // namespace
}  // namespace onnxpool::gen

HALIDE_REGISTER_GENERATOR(onnxpool::gen::LpRange, onnxpool_lp_range)
