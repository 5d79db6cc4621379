// onnxpool_maxpool_float16_2d_halving for x86-64-linux-sse41-avx-f16c-fma-avx2-avx512-avx512_skylake-user_context-no_runtime:
// the schedule Mullapudi2016 planned, frozen by tools/tune.sh (autoscheduler.parallelism=8, Halide 21.0.0, 2026-12-07).
// Every split's tail is GuardWithIf (1 changed from tails that break on inputs
// smaller than their split factors; tools/tuning/freeze.py says why).
// Regenerate with tools/tune.sh rather than editing by hand.
#include "frozen_schedule.h"

ONNXPOOL_FROZEN_SCHEDULE("generators/schedules/frozen/onnxpool_maxpool_float16_2d_halving-x86-64-avx512-mullapudi2016-aa69cf61.cpp") {
    using ::Halide::Func;
    using ::Halide::MemoryType;
    using ::Halide::RVar;
    using ::Halide::TailStrategy;
    using ::Halide::Var;
    Var plane_vi("plane_vi");
    Var plane_vo("plane_vo");

    Func output = onnxpool::gen::frozen_func(pipeline, 1, "output");

    {
        Var plane = output.args()[2];
        output
            .compute_root()
            .split(plane, plane_vo, plane_vi, 32, TailStrategy::GuardWithIf)
            .vectorize(plane_vi)
            .parallel(plane_vo);
    }
}
