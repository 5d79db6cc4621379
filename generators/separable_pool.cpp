#include "separable_pool.h"

namespace onnxpool::gen {

using Halide::Expr;
using Halide::Func;
using Halide::Tuple;

namespace {

// A call to a Func as a Tuple, whether the Func has one value or several.
Tuple values_of(const Halide::FuncRef& call, size_t count) {
  return count == 1 ? Tuple(Expr(call)) : Tuple(call);
}

}  // namespace

const SeparableStages& add_separable_reduction(SeparablePool& pool, const TapReduction& r) {
  const int rank = pool.spatial_rank;
  const std::vector<Halide::Var>& v = pool.vars;
  SeparableStages s;

  // Stage 1 (`rows`): reduce over every spatial axis but x. It fills the
  // whole row the windows touch, padding included, with the identity, then
  // reduces the input's own x range into it: the padding is in the buffer
  // and no read is ever clamped along x (design.md §3 and §6).
  Halide::Region tap_region = {{0, pool.input_extents[0]}};
  for (int i = 1; i < rank; ++i) tap_region.push_back({0, *pool.dims[i].kernel});
  s.taps = Halide::RDom(tap_region, r.name + "_tap");
  std::vector<Expr> at = {s.taps[0]};
  std::vector<Expr> row = {s.taps[0]};
  Expr rows_inside = Halide::Internal::const_true();
  for (int i = 1; i < rank; ++i) {
    Expr tap = pool.dims[i].tap(v[i], s.taps[i]);
    Expr extent = pool.input_extents[i];
    rows_inside = rows_inside && tap >= 0 && tap < extent;
    at.push_back(Halide::clamp(tap, 0, extent - 1));
    row.push_back(v[i]);
  }
  at.push_back(v[rank]);
  row.push_back(v[rank]);
  // A row tap outside the input contributes the identity: a select on a
  // per-row condition, so a vector's taps still accumulate in a register
  // (skipping them with RDom::where made each tap a load-add-store of the
  // row buffer: AveragePool S4 1.9x slower).
  if (pool.clamp_safe.defined()) rows_inside = rows_inside || pool.clamp_safe;
  Tuple tap_value = r.row_tap(at, row);
  if (rank > 1) tap_value = Halide::select(rows_inside, tap_value, Tuple(r.identity));
  s.rows = Func(r.name + "_rows");
  s.rows(v) = Tuple(r.identity);
  s.rows(row) = r.combine(values_of(s.rows(row), r.identity.size()), tap_value);

  // Stage 2 (`window`): reduce along x, over the windows' x taps, padding
  // included: `rows` holds the identity there.
  s.x_taps = Halide::RDom(0, *pool.dims[0].kernel, r.name + "_x_tap");
  std::vector<Expr> x_at(v.begin(), v.end());
  x_at[0] = pool.dims[0].tap(v[0], s.x_taps);
  Tuple tap = r.window_tap ? r.window_tap(s.rows, x_at) : values_of(s.rows(x_at), r.identity.size());
  s.window = Func(r.name + "_window");
  s.window(v) = Halide::Tuple(r.identity);
  s.window(v) = r.combine(values_of(s.window(v), r.identity.size()), tap);

  pool.stages.push_back(s);
  return pool.stages.back();
}

}  // namespace onnxpool::gen
