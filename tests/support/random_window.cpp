#include "support/random_window.h"

#include <algorithm>
#include <string>

namespace onnxpool_test {
namespace {

// Larger extents on the last axis so vector bodies and tails of every width
// (16, 32, 64 lanes) are reached; smaller on 3D so the reference stays quick.
int64_t max_random_extent(int spatial_rank, size_t axis) {
  const bool last = axis + 1 == static_cast<size_t>(spatial_rank);
  switch (spatial_rank) {
    case 1: return 70;
    case 2: return last ? 40 : 12;
    default: return last ? 20 : 6;
  }
}

bool all_ones(const std::vector<int64_t>& values) {
  return std::all_of(values.begin(), values.end(), [](int64_t v) { return v == 1; });
}

}  // namespace

// The order of the draws is part of the contract: MaxPool cases named in old
// failure reports (seed, stream, case) must still rebuild the same node.
RandomWindow random_window(Random& random, int spatial_rank, double oversized_pads_chance) {
  const size_t rank = static_cast<size_t>(spatial_rank);
  const int64_t max_kernel = spatial_rank == 1 ? 5 : spatial_rank == 2 ? 4 : 3;
  const bool dilated = random.chance(0.3);
  const bool use_pads = random.chance(0.7);
  // Pads of at least the window's extent allow windows made only of padding.
  const bool oversized_pads = random.chance(oversized_pads_chance);

  RandomWindow w;
  PoolSpec& spec = w.spec;
  spec.auto_pad = random.pick(std::vector<std::string>{"NOTSET", "NOTSET", "NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"});
  const bool explicit_pads = spec.auto_pad == "NOTSET";
  std::vector<int64_t> strides(rank), dilations(rank), pad_begin(rank, 0), pad_end(rank, 0);
  w.input_shape = {random.between(1, 3), random.between(1, 3)};
  for (size_t axis = 0; axis < rank; ++axis) {
    const int64_t kernel = random.between(1, max_kernel);
    strides[axis] = random.between(1, 3);
    dilations[axis] = dilated ? random.between(1, 3) : 1;
    const int64_t window = (kernel - 1) * dilations[axis] + 1;
    if (explicit_pads && use_pads) {
      const int64_t max_pad = oversized_pads ? window + 1 : window - 1;
      pad_begin[axis] = random.between(0, max_pad);
      pad_end[axis] = random.between(0, max_pad);
    }
    spec.kernel_shape.push_back(kernel);
    // The input must hold at least one window: a smaller one is invalid.
    const int64_t min_extent =
        spec.auto_pad == "VALID" ? window : std::max<int64_t>(1, window - pad_begin[axis] - pad_end[axis]);
    const int64_t max_extent = std::max(max_random_extent(spatial_rank, axis), min_extent + 3);
    w.input_shape.push_back(random.between(min_extent, max_extent));
  }
  // Leave defaults out half the time, so both spellings are exercised.
  if (!all_ones(strides) || random.chance(0.5)) spec.strides = strides;
  if (!all_ones(dilations) || random.chance(0.5)) spec.dilations = dilations;
  if (explicit_pads && (use_pads || random.chance(0.5))) {
    spec.pads = pad_begin;
    spec.pads.insert(spec.pads.end(), pad_end.begin(), pad_end.end());
  }
  spec.ceil_mode = random.chance(0.4);
  return w;
}

}  // namespace onnxpool_test
