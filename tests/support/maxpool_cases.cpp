#include "support/maxpool_cases.h"

#include <sstream>

#include "support/onnx_attributes.h"
#include "support/random_window.h"

namespace onnxpool_test {
namespace {

constexpr int64_t kValuesShownUpTo = 64;

}  // namespace

onnxpool::Attributes max_pool_attributes(const PoolSpec& spec, bool state_defaults) {
  return onnx_attributes(onnxpool::PoolOp::kMaxPool, spec, state_defaults);
}

MaxPoolCase make_max_pool_case(const PoolSpec& spec, HostTensor X, bool with_indices) {
  return MaxPoolCase{spec, max_pool_attributes(spec), std::move(X), with_indices};
}

std::string MaxPoolCase::describe() const {
  std::ostringstream out;
  out << "MaxPool " << type_label(X.type()) << " X" << shape_to_string(X.shape()) << spec.to_string()
      << (with_indices ? " with Indices" : " without Indices");
  if (X.size() <= kValuesShownUpTo) {
    out << "\n  X values:";
    for (int64_t i = 0; i < X.size(); ++i) out << ' ' << X.get(i);
  }
  return out.str();
}

MaxPoolCase random_max_pool_case(Random& random, ElementType type, int spatial_rank) {
  RandomWindow window = random_window(random, spatial_rank);
  PoolSpec& spec = window.spec;
  spec.storage_order = random.chance(0.3) ? 1 : 0;

  HostTensor X(type, window.input_shape);
  switch (random.between(0, is_floating_point(type) ? 3 : 2)) {
    case 0: fill_with_ties(random, &X, 0.0); break;
    case 1: fill_away_from_zero(random, &X); break;
    case 2: fill_with_any_bits(random, &X); break;
    default: fill_with_ties(random, &X, random.pick(std::vector<double>{0.02, 0.1, 0.5})); break;
  }
  return MaxPoolCase{spec, max_pool_attributes(spec, random.chance(0.3)), std::move(X), random.chance(0.5)};
}

}  // namespace onnxpool_test
