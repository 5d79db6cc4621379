#include "global_reduction.h"

namespace onnxpool::gen {

using Halide::Expr;
using Halide::Func;

const GlobalStages& add_global_reduction(GlobalPool& pool, const std::string& name, const Expr& identity,
                                         const std::function<Expr(Expr, Expr)>& combine, const Func& value) {
  GlobalStages g;
  const int lanes = pool.lanes;
  Expr blocks = pool.plane_size / lanes;
  Expr body = blocks * lanes;
  g.blocks = Halide::RDom(0, blocks, name + "_block");
  g.partial = Func(name + "_partial");
  g.partial(pool.lane, pool.plane) = identity;
  g.partial(pool.lane, pool.plane) =
      combine(g.partial(pool.lane, pool.plane), value(g.blocks * lanes + pool.lane, pool.plane));

  Func level = g.partial;
  for (int width = lanes / 2; width >= 1; width /= 2) {
    Func fold(name + "_fold" + std::to_string(width));
    fold(pool.lane, pool.plane) = combine(level(pool.lane, pool.plane), level(pool.lane + width, pool.plane));
    g.folds.push_back(fold);
    level = fold;
  }
  g.tail = Halide::RDom(0, pool.plane_size - body, name + "_tail");
  g.total = Func(name + "_total");
  g.total(pool.plane) = level(0, pool.plane);
  g.total(pool.plane) = combine(g.total(pool.plane), value(body + g.tail, pool.plane));
  pool.stages.push_back(g);
  return pool.stages.back();
}

}  // namespace onnxpool::gen
