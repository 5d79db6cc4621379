// MaxPool test cases: a node's attributes in two forms (the reference's
// PoolSpec and the onnxpool::Attributes a runtime would hand over) plus an
// input. Random ones aim at what breaks kernels: ties, NaN and infinities,
// all-negative data next to padding, windows that hang into or lie entirely
// in the padding, and widths that leave vector tails.
#pragma once

#include <string>

#include "onnxpool/attributes.h"
#include "reference/host_tensor.h"
#include "reference/pool_geometry.h"
#include "support/random.h"
#include "support/value_fills.h"

namespace onnxpool_test {

struct MaxPoolCase {
  PoolSpec spec;
  onnxpool::Attributes attributes;
  HostTensor X;
  bool with_indices = false;

  // Everything needed to rebuild the case by hand (values too, when few).
  std::string describe() const;
};

// The ONNX attributes a runtime would pass for `spec`. Absent lists stay
// absent; with `state_defaults`, auto_pad, ceil_mode and storage_order are
// spelled out even at their default values.
onnxpool::Attributes max_pool_attributes(const PoolSpec& spec, bool state_defaults = false);

MaxPoolCase make_max_pool_case(const PoolSpec& spec, HostTensor X, bool with_indices);

// A valid random case with `spatial_rank` (1..3) spatial axes.
MaxPoolCase random_max_pool_case(Random& random, ElementType type, int spatial_rank);

}  // namespace onnxpool_test
