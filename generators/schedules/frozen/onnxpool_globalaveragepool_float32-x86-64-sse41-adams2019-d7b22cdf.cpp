// onnxpool_globalaveragepool_float32 for x86-64-linux-sse41-user_context-no_runtime-strict_float:
// the schedule Adams2019 planned, frozen by tools/tune.sh (autoscheduler.parallelism=8, Halide 21.0.0, 2026-12-07).
// Every split's tail is GuardWithIf (4 changed from tails that break on inputs
// smaller than their split factors; tools/tuning/freeze.py says why).
// Regenerate with tools/tune.sh rather than editing by hand.
#include "frozen_schedule.h"

ONNXPOOL_FROZEN_SCHEDULE("generators/schedules/frozen/onnxpool_globalaveragepool_float32-x86-64-sse41-adams2019-d7b22cdf.cpp") {
    using ::Halide::Func;
    using ::Halide::MemoryType;
    using ::Halide::RVar;
    using ::Halide::TailStrategy;
    using ::Halide::Var;
    Func output = onnxpool::gen::frozen_func(pipeline, 6, "output");
    Func sum_total = onnxpool::gen::frozen_func(pipeline, 5, "sum_total");
    Func sum_fold1 = onnxpool::gen::frozen_func(pipeline, 4, "sum_fold1");
    Func sum_fold2 = onnxpool::gen::frozen_func(pipeline, 3, "sum_fold2");
    Func sum_partial = onnxpool::gen::frozen_func(pipeline, 2, "sum_partial");
    Func value = onnxpool::gen::frozen_func(pipeline, 1, "value");
    Var lane(sum_partial.get_schedule().dims()[0].var);
    Var lanei("lanei");
    Var plane(output.get_schedule().dims()[0].var);
    Var planei("planei");
    Var planeii("planeii");
    RVar sum_block_x(sum_partial.update(0).get_schedule().dims()[0].var);
    RVar sum_tail_x(sum_total.update(0).get_schedule().dims()[0].var);
    output
        .split(plane, plane, planei, 64, TailStrategy::GuardWithIf)
        .split(planei, planei, planeii, 4, TailStrategy::GuardWithIf)
        .vectorize(planeii)
        .compute_root()
        .reorder({planeii, planei, plane})
        .parallel(plane);
    sum_total
        .store_in(MemoryType::Stack)
        .split(plane, plane, planei, 4, TailStrategy::GuardWithIf)
        .vectorize(planei)
        .compute_at(output, planei)
        .reorder({planei, plane});
    sum_total.update(0)
        .split(plane, plane, planei, 4, TailStrategy::GuardWithIf)
        .vectorize(planei)
        .reorder({planei, plane, sum_tail_x});
    sum_partial
        .store_in(MemoryType::Stack)
        .split(lane, lane, lanei, 4, TailStrategy::GuardWithIf)
        .unroll(plane)
        .vectorize(lanei)
        .compute_at(output, planei)
        .reorder({lanei, lane, plane});
    sum_partial.update(0)
        .split(lane, lane, lanei, 4, TailStrategy::GuardWithIf)
        .unroll(plane)
        .vectorize(lanei)
        .reorder({lanei, lane, plane, sum_block_x});
}
