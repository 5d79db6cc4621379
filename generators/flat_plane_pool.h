// "Same" 2D pools read each plane as one flat row: stride 1 and dilation 1
// on both axes, and an output plane the input's shape (Inception's
// 3x3/s1/p1, YOLO's 5x5/s1/p2). Then output position i (y * W + x) reduces
// the inputs at i + dy * W + dx, so both passes run over the whole plane as
// one loop, with no per-row loop set-up and no masked row tails: on
// 28-wide planes (MaxPool S4) those were half the work (README).
//
// Pass 1 (`columns`) reduces along y. Its interior rows read every tap
// untested; only the rows whose windows cross the top or bottom edge test
// their taps, a per-row condition, so no lane is ever gathered (a per-lane
// clamped index there made Halide gather by lanes: 69 -> 50 us on S4).
// Pass 2 (`window`) reduces along x; a tap whose x falls outside the row
// (where the flat row wraps into the next image row) contributes the
// identity, tested per lane against a table of each position's x.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "Halide.h"

namespace onnxpool::gen {

// The kernels whose taps each pass reduces in one unrolled expression; a
// schedule specializes on fixed_flat_kernel(axis, k) for each, the others
// reduce in a tap loop.
constexpr int kFixedFlatKernels[] = {3, 5};

struct FlatAxis {
  Halide::Expr kernel;     // taps along the axis
  Halide::Expr pad_begin;  // taps before the output's own position
};

// One flat-plane reduction: `columns`, then `window`.
struct FlatPlaneStages {
  Halide::Func columns;      // update 0: edge rows; 1: interior; 2: the x padding
  Halide::RDom edge_rows;    // (x, edge row): the rows whose windows cross the top or bottom
  Halide::RDom interior;     // flat positions of the other rows
  Halide::Func edge_column;  // tap loop of an edge row's entry (uncommon kernels)
  Halide::Func interior_column;
  Halide::RDom row_taps;     // the tap loops' domain
  Halide::RDom padding;      // the x padding before the plane and after it
  Halide::Func window;
  Halide::RDom x_taps;
};

struct FlatPlanePool {
  Halide::Var i{"i"}, plane{"plane"};
  Halide::Expr width, height;  // of the plane (input and output alike)
  FlatAxis x, y;
  Halide::Expr planes_per_task;  // parallel grain, chosen by the runtime
  Halide::Type accumulator_type;
  Halide::Func column_of;  // x of each flat position, a table computed once per call
  std::vector<FlatPlaneStages> stages;
  Halide::Func output;
  // Funcs of the flat position that every plane shares (column_of,
  // AveragePool's reciprocal counts): computed once per call.
  std::vector<Halide::Func> per_call_tables;
  std::vector<Halide::RDom> table_positions;  // each table's (x, y) domain
};

// What one flat-plane reduction computes.
struct FlatReduction {
  std::string name;  // names the Funcs: <name>_columns, <name>_window
  Halide::Expr identity;  // also what a tap outside the plane contributes
  std::function<Halide::Expr(const Halide::Expr&, const Halide::Expr&)> combine;
  // The input's value at flat position `i` of `plane`, in the accumulator type.
  std::function<Halide::Expr(const Halide::Expr& i, const Halide::Expr& plane)> tap;
};

// The scalar inputs every flat-plane generator declares (the runtime
// matches them by name): kernel_<d> and pad_begin_<d> per Halide dimension
// (0: x), the plane's width and height, and the parallel grain.
struct FlatPlaneInputs {
  std::vector<Halide::GeneratorInput<int>*> kernel, pad_begin;
  Halide::GeneratorInput<int>* width = nullptr;
  Halide::GeneratorInput<int>* height = nullptr;
  Halide::GeneratorInput<int>* planes_per_task = nullptr;

  FlatAxis axis(int d) const { return FlatAxis{*kernel[d], *pad_begin[d]}; }
};

// Call from a generator's configure().
template <typename GeneratorT>
FlatPlaneInputs add_flat_plane_inputs(GeneratorT* gen) {
  FlatPlaneInputs in;
  for (int d = 0; d < 2; ++d) {
    in.kernel.push_back(gen->template add_input<int>("kernel_" + std::to_string(d)));
    in.pad_begin.push_back(gen->template add_input<int>("pad_begin_" + std::to_string(d)));
  }
  in.width = gen->template add_input<int>("width");
  in.height = gen->template add_input<int>("height");
  in.planes_per_task = gen->template add_input<int>("planes_per_task");
  return in;
}

// Estimates for the autoschedulers: MaxPool S4, 192 planes of 28 x 28 under
// a centred 3x3 window, as (flat position, plane) buffers.
template <typename InputT, typename OutputT>
void set_flat_plane_estimates(InputT& input, OutputT& output, const FlatPlaneInputs& in) {
  input.set_estimates({{0, 28 * 28}, {0, 192}});
  output.set_estimates({{0, 28 * 28}, {0, 192}});
  for (int d = 0; d < 2; ++d) {
    in.kernel[d]->set_estimate(3);
    in.pad_begin[d]->set_estimate(1);
  }
  in.width->set_estimate(28);
  in.height->set_estimate(28);
  in.planes_per_task->set_estimate(24);
}

// A table of one value per flat position, f(x, y), shared by every plane:
// registered in pool.per_call_tables. (Written row by row rather than as
// f(i % width, i / width): a vector division by a run-time width is a
// division per lane.)
Halide::Func per_position_table(FlatPlanePool& pool, const std::string& name,
                                const std::function<Halide::Expr(const Halide::Expr&, const Halide::Expr&)>& f);

FlatPlanePool make_flat_plane_pool(const FlatPlaneInputs& inputs, const Halide::Type& accumulator);

// True when `axis` has kernel size k and the centred pad a "same" window of
// that size has (along x the unrolled taps then have constant offsets).
// Along y the offsets are multiples of the run-time width either way, and
// specializing on the kernel size alone (one equality, which Halide
// substitutes, dropping the tap loop from the unrolled copy) measured
// slower (MaxPool S4 47 -> 51 us, README), so both axes use this.
Halide::Expr fixed_flat_kernel(const FlatAxis& axis, int k);

const FlatPlaneStages& add_flat_reduction(FlatPlanePool& pool, const FlatReduction& reduction);

}  // namespace onnxpool::gen
