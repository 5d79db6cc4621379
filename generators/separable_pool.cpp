#include "separable_pool.h"

namespace onnxpool::gen {

using Halide::Expr;
using Halide::Func;
using Halide::Tuple;

namespace {

int ipow(int base, int exponent) {
  int result = 1;
  while (exponent-- > 0) result *= base;
  return result;
}

// A call to a Func as a Tuple, whether the Func has one value or several.
Tuple values_of(const Halide::FuncRef& call, size_t count) {
  return count == 1 ? Tuple(Expr(call)) : Tuple(call);
}

}  // namespace

Halide::Expr fixed_row_kernels(const SeparablePool& pool, int k) {
  Expr fixed = Halide::Internal::const_true();
  for (int i = 1; i < pool.spatial_rank; ++i) fixed = fixed && (*pool.dims[i].kernel) == k;
  return fixed;
}

const SeparableStages& add_separable_reduction(SeparablePool& pool, const TapReduction& r) {
  const int rank = pool.spatial_rank;
  const std::vector<Halide::Var>& v = pool.vars;
  SeparableStages s;

  // Stage 1 (`rows`): reduce over every spatial axis but x, into a row
  // that holds every x the windows touch, padding included, so that no read
  // is ever clamped along x (docs/design-decisions.md, "Row buffer and
  // padding"). The input's own x range
  // is written once, by the reduction; only the padding columns are written
  // with the identity. (An identity fill of the whole row, then combining
  // every tap into it, cost a fill store plus a load per entry, and for
  // MaxPool's key 0 a memset call per row: together about 15% of MaxPool
  // S3.) The row's entries start undefined; the updates below write each
  // entry the window stage reads.
  s.rows = Func(r.name + "_rows");
  std::vector<Expr> undefined;
  for (const Expr& e : r.identity) undefined.push_back(Halide::undef(e.type()));
  s.rows(v) = Tuple(undefined);

  // Update 0: the reduction over the input's x range, each row entry stored
  // once (a whole vector or, at a row's end, a masked one) from taps reduced
  // in registers. The common row kernels (kFixedRowKernels in every row
  // axis) reduce their taps in one expression; the others in a `column`
  // Func with a tap loop, computed per vector of this update. (A tap loop
  // keeps its running value in memory in the masked vector at a row's end,
  // and the CPU cannot forward that masked store to the next tap's load:
  // with every kernel reduced that way, MaxPool S4's 28-wide rows went
  // 70 -> 96 us. The uncommon kernels still pay it, once per row.)
  //
  // Value of the row tap at offsets `tap` (one per row axis) for the row
  // entry at `row`.
  auto row_tap = [&](const std::vector<Expr>& row, const std::vector<Expr>& tap) {
    std::vector<Expr> at = {row[0]};
    Expr inside = Halide::Internal::const_true();
    for (int i = 1; i < rank; ++i) {
      Expr y = pool.dims[i].tap(row[i], tap[i - 1]);
      Expr extent = pool.input_extents[i];
      inside = inside && y >= 0 && y < extent;
      at.push_back(Halide::clamp(y, 0, extent - 1));
    }
    at.push_back(row[rank]);
    Tuple value = r.row_tap(at, row);
    if (rank == 1) return value;
    // A row tap outside the input contributes the identity: a select on a
    // per-row condition, so a vector's taps still accumulate in a register
    // (skipping them with RDom::where made each tap a load-add-store of the
    // row buffer: AveragePool S4 1.9x slower).
    if (pool.clamp_safe.defined()) inside = inside || pool.clamp_safe;
    return Halide::select(inside, value, Tuple(r.identity));
  };
  RowReduction& reduction = s.reduction;
  const std::vector<Expr> pure(v.begin(), v.end());
  reduction.column = Func(r.name + "_column");
  if (rank > 1) {
    Halide::Region tap_region;
    for (int i = 1; i < rank; ++i) tap_region.push_back({0, *pool.dims[i].kernel});
    reduction.row_taps = Halide::RDom(tap_region, r.name + "_row_tap");
    std::vector<Expr> tap;
    for (int i = 1; i < rank; ++i) tap.push_back(reduction.row_taps[i - 1]);
    // Starting from the identity costs nothing: LLVM folds the first
    // combine (max with key 0, adding -0.0).
    reduction.column(v) = Tuple(r.identity);
    reduction.column(v) = r.combine(values_of(reduction.column(v), r.identity.size()), row_tap(pure, tap));
  } else {
    reduction.column(v) = row_tap(pure, {});
  }
  const Expr width = pool.input_extents[0];
  reduction.input_x = Halide::RDom(0, width, r.name + "_x");
  std::vector<Expr> row = pure;
  row[0] = reduction.input_x;
  Tuple value = values_of(reduction.column(row), r.identity.size());
  if (rank > 1) {
    for (auto k = std::rbegin(kFixedRowKernels); k != std::rend(kFixedRowKernels); ++k) {
      // Every tap offset in [0, k) along each row axis, in scan order.
      std::vector<Expr> tap(rank - 1, Expr(0));
      Tuple unrolled = row_tap(row, tap);
      for (int index = 1; index < ipow(*k, rank - 1); ++index) {
        for (int i = 0, rest = index; i < rank - 1; ++i, rest /= *k) tap[rank - 2 - i] = rest % *k;
        unrolled = r.combine(unrolled, row_tap(row, tap));
      }
      value = Halide::select(fixed_row_kernels(pool, *k), unrolled, value);
    }
  }
  s.rows(row) = value;

  // Update 1: the padding columns, [-pad_begin, 0) and the columns past
  // the input that the last window reaches, in one loop: for MaxPool's key
  // 0 LLVM turned a loop over either range alone into a memset call.
  const WindowDim& x_dim = pool.dims[0];
  Expr left = *x_dim.pad_begin;
  Expr last_tap = x_dim.tap(pool.output_width - 1, *x_dim.kernel - 1);
  Expr right = Halide::max(last_tap - (width - 1), 0);
  s.padding = Halide::RDom(0, left + right, r.name + "_pad");
  std::vector<Expr> pad_at = pure;
  pad_at[0] = Halide::select(s.padding < left, s.padding - left, width + s.padding - left);
  s.rows(pad_at) = Tuple(r.identity);

  // Stage 2 (`window`): reduce along x, over the windows' x taps, padding
  // included: `rows` holds the identity there.
  s.x_taps = Halide::RDom(0, *pool.dims[0].kernel - (pool.test_fault ? 1 : 0), r.name + "_x_tap");
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
