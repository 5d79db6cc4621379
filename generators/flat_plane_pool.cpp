#include "flat_plane_pool.h"

namespace onnxpool::gen {

using Halide::Expr;
using Halide::Func;

namespace {

// One entry's row taps reduced: for the fixed kernels, unrolled from
// `tap_at(t)`; for the others, `tap_loop` (a Func with a tap loop that the
// schedule computes per vector).
Expr reduce_row_taps(const FlatReduction& r, const FlatAxis& y, const std::function<Expr(const Expr&)>& tap_at,
                     const Expr& tap_loop) {
  Expr value = tap_loop;
  for (auto k = std::rbegin(kFixedFlatKernels); k != std::rend(kFixedFlatKernels); ++k) {
    Expr unrolled = tap_at(Expr(0));
    for (int t = 1; t < *k; ++t) unrolled = r.combine(unrolled, tap_at(Expr(t)));
    value = Halide::select(fixed_flat_kernel(y, *k), unrolled, value);
  }
  return value;
}

}  // namespace

FlatPlanePool make_flat_plane_pool(const FlatPlaneInputs& inputs, const Halide::Type& accumulator) {
  FlatPlanePool pool;
  pool.width = *inputs.width;
  pool.height = *inputs.height;
  pool.x = inputs.axis(0);
  pool.y = inputs.axis(1);
  pool.planes_per_task = *inputs.planes_per_task;
  pool.accumulator_type = accumulator;
  pool.column_of = per_position_table(pool, "column_of", [](const Expr& x, const Expr&) { return x; });
  return pool;
}

Func per_position_table(FlatPlanePool& pool, const std::string& name,
                        const std::function<Expr(const Expr&, const Expr&)>& f) {
  Func table(name);
  Halide::RDom position(0, pool.width, 0, pool.height, name + "_position");
  Expr value = f(position.x, position.y);
  table(pool.i) = Halide::undef(value.type());
  table(position.x + position.y * pool.width) = value;
  pool.per_call_tables.push_back(table);
  pool.table_positions.push_back(position);
  return table;
}

Expr fixed_flat_kernel(const FlatAxis& axis, int k) { return axis.kernel == k && axis.pad_begin == (k - 1) / 2; }

const FlatPlaneStages& add_flat_reduction(FlatPlanePool& pool, const FlatReduction& r) {
  const Halide::Var i = pool.i, plane = pool.plane;
  const Expr width = pool.width, height = pool.height;
  const Expr area = width * height;
  const Expr above = pool.y.pad_begin;                      // taps above a window's own row
  const Expr below = pool.y.kernel - 1 - pool.y.pad_begin;  // and below it
  FlatPlaneStages s;

  // Pass 1: every entry is written once, by exactly one update; the runtime
  // guarantees height >= kernel_y, so the edge rows and the interior do not
  // overlap and the interior is not empty.
  s.columns = Func(r.name + "_columns");
  s.columns(i, plane) = Halide::undef(r.identity.type());

  s.row_taps = Halide::RDom(0, pool.y.kernel, r.name + "_row_tap");

  // Update 0: the rows [0, above) and [height - below, height). A tap row
  // outside the plane contributes the identity: a per-row test, and the
  // row read is clamped into the plane, so every load is a dense vector.
  s.edge_rows = Halide::RDom(0, width, 0, pool.y.kernel - 1, r.name + "_edge");
  {
    const Expr row = Halide::select(s.edge_rows.y < above, s.edge_rows.y, height - below + s.edge_rows.y - above);
    const Expr column = s.edge_rows.x;
    auto tap_at = [&](const Expr& t) {
      Expr tap_row = row + t - above;
      Expr inside = tap_row >= 0 && tap_row < height;
      return Halide::select(inside, r.tap(column + Halide::clamp(tap_row, 0, height - 1) * width, plane), r.identity);
    };
    s.edge_column = Func(r.name + "_edge_column");
    {
      Halide::Var x("x"), y("y");
      Func& loop = s.edge_column;
      loop(x, y, plane) = r.identity;
      Expr tap_row = y + s.row_taps - above;
      Expr inside = tap_row >= 0 && tap_row < height;
      Expr value =
          Halide::select(inside, r.tap(x + Halide::clamp(tap_row, 0, height - 1) * width, plane), r.identity);
      loop(x, y, plane) = r.combine(loop(x, y, plane), value);
    }
    s.columns(column + row * width, plane) =
        reduce_row_taps(r, pool.y, tap_at, s.edge_column(column, row, plane));
  }

  // Update 1: every other row, untested: all of its taps are in the plane.
  s.interior = Halide::RDom(above * width, (height - (pool.y.kernel - 1)) * width, r.name + "_interior");
  {
    const Expr at = s.interior.x;
    auto tap_at = [&](const Expr& t) { return r.tap(at + (t - above) * width, plane); };
    s.interior_column = Func(r.name + "_interior_column");
    Func& loop = s.interior_column;
    loop(i, plane) = r.identity;
    loop(i, plane) = r.combine(loop(i, plane), r.tap(i + (s.row_taps - above) * width, plane));
    s.columns(at, plane) = reduce_row_taps(r, pool.y, tap_at, loop(at, plane));
  }

  // Update 2: the entries before the plane and after it that pass 2 reads
  // for the first and last rows' outside taps (which it then discards).
  const Expr left = pool.x.pad_begin;
  const Expr right = pool.x.kernel - 1 - pool.x.pad_begin;
  s.padding = Halide::RDom(0, left + right, r.name + "_pad");
  s.columns(Halide::select(s.padding < left, s.padding - left, area + s.padding - left), plane) = r.identity;

  // Pass 2: along x. A tap d columns away from its output is inside the row
  // when the output's x + d is in [0, width).
  s.x_taps = Halide::RDom(0, pool.x.kernel, r.name + "_x_tap");
  const Expr d = s.x_taps - pool.x.pad_begin;
  const Expr x = pool.column_of(i);
  const Expr inside = Halide::select(d < 0, x >= -d, d > 0, x < width - d, Halide::Internal::const_true());
  s.window = Func(r.name + "_window");
  s.window(i, plane) = r.identity;
  s.window(i, plane) = r.combine(s.window(i, plane), Halide::select(inside, s.columns(i + d, plane), r.identity));

  pool.stages.push_back(s);
  return pool.stages.back();
}

}  // namespace onnxpool::gen
