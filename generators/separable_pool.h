// The shape every windowed pooling algorithm shares, handed to a schedule.
//
// A window reduction is separable: first reduce along every spatial axis but
// the fastest (`rows`: one value per x, padding included, per output row),
// then reduce along x (`window`). No stage clamps a vector index, so no lane
// gathers; the padding lives in the row buffer (docs/design-decisions.md,
// "Row buffer and padding").
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "Halide.h"
#include "window_params.h"

namespace onnxpool::gen {

// Row kernels (the same size along every row axis) whose taps `rows`
// reduces in one unrolled expression; a schedule specializes on
// fixed_row_kernels(pool, k) for each, or evaluates them all.
constexpr int kFixedRowKernels[] = {3, 2, 1};

// rows' update 0: the row taps of each input x, reduced in one expression
// for the fixed row kernels, else in `column`.
struct RowReduction {
  Halide::RDom input_x;   // the update's x range: the input's
  Halide::Func column;    // the row taps' reduction at one input x (and row)
  Halide::RDom row_taps;  // column's update (undefined for 1D pools)
};

// One separable reduction: `rows` then `window`. An algorithm may chain
// several (LpPool's scaled sum needs each window's largest magnitude first).
struct SeparableStages {
  Halide::Func rows;  // update 0: `reduction`; update 1: the padding columns
  RowReduction reduction;
  Halide::RDom padding;  // the padding columns, left then right
  Halide::Func window;
  Halide::RDom x_taps;
};

struct SeparablePool {
  int spatial_rank = 0;
  std::vector<Halide::Var> vars;       // x, [y, [z,]] plane: output (and stage) coordinates
  std::vector<Halide::Expr> input_extents;  // by Halide dimension, plane last
  Halide::Expr output_width;                // outputs along x: how far the row's padding reaches
  std::vector<WindowDim> dims;
  std::vector<SeparableStages> stages;  // in the order they are computed
  Halide::Func output;                  // the pipeline's output Func (maybe a Tuple)
  Halide::Expr rows_per_task;           // parallel grain, chosen by the runtime
  // Optional bool: clamped row taps may be read untested (an idempotent
  // reduction whose every window holds an input tap). Undefined: always test.
  Halide::Expr clamp_safe;
  Halide::Type accumulator_type;        // sets the vector width
  // Run-time conditions worth a separate copy of the whole loop nest, e.g.
  // "Indices are row-major", which avoids a vector division per output.
  std::vector<Halide::Expr> output_specializations;
  // Whether a CPU schedule makes a copy of the loop nest for each common x
  // window (cpu_schedule.cpp). Off for kernels the runtime takes only for
  // rare calls (accumulation.h: lp_kernel_only_for_large_p), where the copies
  // cost every build more than they save: the float32 2D and 3D scaled
  // LpPool kernels (AVX2) generated in 10.5 and 16 s without them instead of
  // 30.5 and 49 s, and ran p = 8 1.1-1.25x slower (1 thread, medians:
  // 1x64x56x56 3x3/s2/p1 1670-1890 -> 1960-2020 us, 1x64x28x28 3x3/s1/p1
  // 1500-1520 -> 1860-1920, 1x16x16x56x56 2x2x2/s2 4020-4290 -> 4560-4640).
  bool common_window_copies = true;
  // Whether a CPU schedule may add a copy with unrolled x loops for the
  // ResNet stem's geometry (cpu_schedule.cpp's kUnrolledGeometries; only with
  // the common window copies, and only where a row is a few vectors).
  // Opt-in: set by the MaxPool (without Indices) and AveragePool generators,
  // the operators the stem runs. It cost every kernel it reached, and most
  // where it is never wanted: with it on by default, the LpPool 2D kernels
  // took 1220 CPU-s of generation (float64 scaled, SSE4.1: 22 -> 136 s) and
  // the Indices kernels nearly twice their time (float32 2D, AVX2: 19.5 -> 36 s).
  bool unrolled_geometry_copies = false;
  // Funcs of one output coordinate that every plane shares (AveragePool's
  // per-axis reciprocal counts): a CPU schedule computes them once per call.
  std::vector<Halide::Func> per_axis_tables;
  // Test only (ScheduleKnobs::test_fault): each window skips its last x tap.
  bool test_fault = false;
};

// What one separable reduction computes; where its taps lie is the pool's.
struct TapReduction {
  std::string name;                      // names the Funcs: <name>_rows, <name>_window
  std::vector<Halide::Expr> identity;    // also what padding contributes
  // combine(accumulated, tap value)
  std::function<Halide::Tuple(const Halide::Tuple&, const Halide::Tuple&)> combine;
  // Value of the input tap at (clamped) input coordinates `at`, reduced into
  // the row at stage coordinates `row`.
  std::function<Halide::Tuple(const std::vector<Halide::Expr>& at, const std::vector<Halide::Expr>& row)> row_tap;
  // Value the window stage reduces for the row entry at `x_at`; unset: the
  // row entry itself.
  std::function<Halide::Tuple(const Halide::Func& rows, const std::vector<Halide::Expr>& x_at)> window_tap;
};

// A pool over `input`'s windows, before any reduction is added.
template <typename InputT, typename OutputT>
SeparablePool make_separable_pool(const InputT& input, const OutputT& output, int spatial_rank,
                                  const std::vector<WindowDim>& dims, const Halide::Expr& rows_per_task,
                                  const Halide::Type& accumulator) {
  SeparablePool pool;
  pool.spatial_rank = spatial_rank;
  pool.vars = make_pool_vars(spatial_rank, "");
  pool.dims = dims;
  pool.rows_per_task = rows_per_task;
  pool.accumulator_type = accumulator;
  pool.input_extents = input_extents(input, spatial_rank);
  // (Every output of a Tuple-valued pipeline has the same shape.)
  pool.output_width = Halide::Func(output).output_buffers()[0].dim(0).extent();
  return pool;
}

// True when every row axis has kernel size k.
Halide::Expr fixed_row_kernels(const SeparablePool& pool, int k);

// Defines rows and window for `reduction` over the pool's windows and appends
// them to pool.stages. Row taps outside the input contribute the identity
// (or, when pool.clamp_safe is defined and true, read the clamped row: the
// caller vouches that the reduction is idempotent).
const SeparableStages& add_separable_reduction(SeparablePool& pool, const TapReduction& reduction);

}  // namespace onnxpool::gen
