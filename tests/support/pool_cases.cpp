#include "support/pool_cases.h"

#include <sstream>
#include <utility>
#include <stdexcept>

#include "support/onnx_attributes.h"
#include "support/random_window.h"
#include "support/value_fills.h"

namespace onnxpool_test {

using onnxpool::PoolOp;

namespace {

constexpr int64_t kValuesShownUpTo = 64;

// [N, C, spatial...] for a global pool: planes of one element, ordinary
// ones, and large ones (1D up to 1100, so past 1000; 2D and 3D up to ~1700).
std::vector<int64_t> random_global_shape(Random& random, int spatial_rank) {
  std::vector<int64_t> shape{random.between(1, 3), random.between(1, 3)};
  const int64_t kind = random.between(0, 9);
  const bool single = kind < 2;
  const bool large = kind >= 2 && kind < 5;
  for (int axis = 0; axis < spatial_rank; ++axis) {
    const bool last = axis + 1 == spatial_rank;
    int64_t extent = 1;
    if (single) {
      extent = 1;
    } else if (large) {
      switch (spatial_rank) {
        case 1: extent = random.between(900, 1100); break;
        case 2: extent = last ? random.between(30, 45) : random.between(20, 38); break;
        case 3: extent = last ? random.between(9, 17) : random.between(8, 10); break;
        default: extent = last ? random.between(5, 9) : random.between(4, 6); break;
      }
    } else {
      switch (spatial_rank) {
        case 1: extent = random.between(1, 70); break;
        case 2: extent = last ? random.between(1, 40) : random.between(1, 12); break;
        case 3: extent = last ? random.between(1, 20) : random.between(1, 6); break;
        default: extent = last ? random.between(1, 9) : random.between(1, 3); break;
      }
    }
    shape.push_back(extent);
  }
  return shape;
}

}  // namespace

const std::vector<PoolOp>& sum_and_global_ops() {
  static const std::vector<PoolOp> ops{PoolOp::kAveragePool, PoolOp::kLpPool, PoolOp::kGlobalMaxPool,
                                       PoolOp::kGlobalAveragePool, PoolOp::kGlobalLpPool};
  return ops;
}

PoolCase make_pool_case(PoolOp op, const PoolSpec& spec, HostTensor X) {
  PoolCase c;
  c.op = op;
  c.spec = spec;
  c.attributes = onnx_attributes(op, spec);
  c.X = std::move(X);
  return c;
}

PoolCase make_filled_sum_pool_case(Random& random, onnxpool::PoolOp op, const PoolSpec& spec, HostTensor X) {
  const bool lp = op == onnxpool::PoolOp::kLpPool || op == onnxpool::PoolOp::kGlobalLpPool;
  const int scale_exponent = fill_for_sum_pool(random, &X, lp ? SumPool::kLp : SumPool::kAverage);
  PoolCase c = make_pool_case(op, spec, std::move(X));
  c.scale_exponent = scale_exponent;
  return c;
}

std::string PoolCase::describe() const {
  std::ostringstream out;
  out << onnxpool::op_name(op) << ' ' << type_label(X.type()) << " X" << shape_to_string(X.shape());
  if (is_global_pool(op)) {
    if (op == PoolOp::kGlobalLpPool) out << " p=" << spec.p;
  } else {
    out << spec.to_string();
  }
  if (scale_exponent != 0) out << " (values around 2^" << scale_exponent << ")";
  if (through_dispatcher) out << " through onnxpool::pool";
  if (X.size() <= kValuesShownUpTo) {
    out.precision(17);
    out << "\n  X values:";
    for (int64_t i = 0; i < X.size(); ++i) out << ' ' << X.get(i);
  }
  return out.str();
}

PoolCase random_pool_case(Random& random, PoolOp op, ElementType type, int spatial_rank) {
  if (!is_floating_point(type)) throw std::logic_error("random_pool_case: the sum and global pools take float types");
  PoolCase c;
  c.op = op;
  std::vector<int64_t> shape;
  if (is_global_pool(op)) {
    shape = random_global_shape(random, spatial_rank);
  } else {
    // Windows of only padding matter more here than for MaxPool: AveragePool
    // gives NaN or 0 for them, LpPool 0.
    RandomWindow window = random_window(random, spatial_rank, /*oversized_pads=*/0.25);
    c.spec = window.spec;
    shape = window.input_shape;
  }
  if (op == PoolOp::kAveragePool) c.spec.count_include_pad = random.chance(0.5);
  // p = 2, the default, is often left out of the attributes.
  if (op == PoolOp::kLpPool || op == PoolOp::kGlobalLpPool) c.spec.p = random.chance(0.2) ? 2 : random.between(1, 8);

  c.X = HostTensor(type, shape);
  if (op == PoolOp::kGlobalMaxPool) {
    fill_for_global_max(random, &c.X);
  } else {
    const SumPool kind = op == PoolOp::kAveragePool || op == PoolOp::kGlobalAveragePool ? SumPool::kAverage : SumPool::kLp;
    c.scale_exponent = fill_for_sum_pool(random, &c.X, kind);
  }
  c.attributes = onnx_attributes(op, c.spec, random.chance(0.3));
  c.through_dispatcher = random.chance(0.3);
  return c;
}

PoolSpec window_spec(std::vector<int64_t> kernel, std::vector<int64_t> strides, std::vector<int64_t> pads,
                     bool ceil_mode) {
  PoolSpec s;
  s.kernel_shape = std::move(kernel);
  s.strides = std::move(strides);
  s.pads = std::move(pads);
  s.ceil_mode = ceil_mode;
  return s;
}

PoolSpec lp_spec(std::vector<int64_t> kernel, std::vector<int64_t> strides, std::vector<int64_t> pads, int64_t p,
                 bool ceil_mode) {
  PoolSpec s = window_spec(std::move(kernel), std::move(strides), std::move(pads), ceil_mode);
  s.p = p;
  return s;
}

PoolSpec p_only(int64_t p) {
  PoolSpec s;
  s.p = p;
  return s;
}

const std::vector<int64_t>& schedule_edge_widths() {
  static const std::vector<int64_t> widths{1,  2,  3,  5,  7,  8,  9,  15, 16,  17, 24,
                                           31, 32, 33, 47, 56, 63, 64, 65, 100, 129};
  return widths;
}

const std::vector<int64_t>& schedule_edge_heights() {
  static const std::vector<int64_t> heights{2, 7};
  return heights;
}

}  // namespace onnxpool_test
