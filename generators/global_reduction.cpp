#include "global_reduction.h"

namespace onnxpool::gen {

using Halide::Expr;
using Halide::Func;

const GlobalStages& add_global_reduction(GlobalPool& pool, const std::string& name, const Expr& identity,
                                         const std::function<Expr(Expr, Expr)>& combine, const Func& value,
                                         CombineOrder order) {
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
  Expr folded = level(0, pool.plane);
  if (order == CombineOrder::kFree && pool.vectors_of_planes) {
    // Whole vectors of planes reduce their lanes in one step, by whatever
    // tree the schedule's vector reduce takes (the order is free).
    g.lanes = Halide::RDom(0, lanes, name + "_lane");
    g.lanes_at_once = Func(name + "_lanes_at_once");
    g.lanes_at_once(pool.plane) = identity;
    g.lanes_at_once(pool.plane) = combine(g.lanes_at_once(pool.plane), g.partial(g.lanes, pool.plane));
    folded = Halide::select(pool.whole_vectors_of_planes, g.lanes_at_once(pool.plane), folded);
  }
  g.tail = Halide::RDom(0, pool.plane_size - body, name + "_tail");
  g.total = Func(name + "_total");
  g.total(pool.plane) = folded;
  g.total(pool.plane) = combine(g.total(pool.plane), value(body + g.tail, pool.plane));
  pool.stages.push_back(g);
  return pool.stages.back();
}

}  // namespace onnxpool::gen
