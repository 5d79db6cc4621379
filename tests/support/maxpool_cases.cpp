#include "support/maxpool_cases.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

namespace onnxpool_test {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int64_t kValuesShownUpTo = 64;

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

void set_raw_bits(HostTensor* t, int64_t index, uint64_t bits) {
  // Little-endian hosts (x86-64, aarch64): the low bytes are the element.
  std::memcpy(static_cast<unsigned char*>(t->data()) + index * bytes_per_element(t->type()), &bits,
              bytes_per_element(t->type()));
}

// Any bit pattern (subnormals, huge values, NaN) except -0.
void fill_with_any_bits(Random& random, HostTensor* X) {
  for (int64_t i = 0; i < X->size(); ++i) {
    set_raw_bits(X, i, random.bits());
    if (is_floating_point(X->type()) && X->get(i) == 0.0) X->set(i, 0.0);
  }
}

// Strictly below zero (uint8: above zero), so a padded zero leaking into a
// max would show.
void fill_away_from_zero(Random& random, HostTensor* X) {
  for (int64_t i = 0; i < X->size(); ++i) {
    switch (X->type()) {
      case ElementType::kInt8: X->set(i, static_cast<double>(random.between(-128, -1))); break;
      case ElementType::kUInt8: X->set(i, static_cast<double>(random.between(1, 255))); break;
      default: X->set(i, static_cast<double>(random.between(-9, -1))); break;
    }
  }
}

}  // namespace

void fill_with_ties(Random& random, HostTensor* X, double special_probability) {
  const bool unsigned_type = X->type() == ElementType::kUInt8;
  for (int64_t i = 0; i < X->size(); ++i) {
    double value = static_cast<double>(unsigned_type ? random.between(0, 6) : random.between(-3, 3));
    if (is_floating_point(X->type()) && random.chance(special_probability)) {
      switch (random.between(0, 2)) {
        case 0: value = std::numeric_limits<double>::quiet_NaN(); break;
        case 1: value = kInf; break;
        default: value = -kInf; break;
      }
    }
    X->set(i, value);
  }
}

onnxpool::Attributes max_pool_attributes(const PoolSpec& spec, bool state_defaults) {
  onnxpool::Attributes attributes;
  if (!spec.kernel_shape.empty()) attributes.set("kernel_shape", spec.kernel_shape);
  if (!spec.strides.empty()) attributes.set("strides", spec.strides);
  if (!spec.dilations.empty()) attributes.set("dilations", spec.dilations);
  if (!spec.pads.empty()) attributes.set("pads", spec.pads);
  if (state_defaults || spec.auto_pad != "NOTSET") attributes.set("auto_pad", spec.auto_pad);
  if (state_defaults || spec.ceil_mode) attributes.set("ceil_mode", int64_t{spec.ceil_mode ? 1 : 0});
  if (state_defaults || spec.storage_order != 0) attributes.set("storage_order", spec.storage_order);
  return attributes;
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
  const size_t rank = static_cast<size_t>(spatial_rank);
  const int64_t max_kernel = spatial_rank == 1 ? 5 : spatial_rank == 2 ? 4 : 3;
  const bool dilated = random.chance(0.3);
  const bool use_pads = random.chance(0.7);
  // Pads of at least the window's extent allow windows made only of padding.
  const bool oversized_pads = random.chance(0.1);

  PoolSpec spec;
  spec.auto_pad = random.pick(std::vector<std::string>{"NOTSET", "NOTSET", "NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"});
  const bool explicit_pads = spec.auto_pad == "NOTSET";
  std::vector<int64_t> strides(rank), dilations(rank), pad_begin(rank, 0), pad_end(rank, 0);
  std::vector<int64_t> shape{random.between(1, 3), random.between(1, 3)};
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
    shape.push_back(random.between(min_extent, max_extent));
  }
  // Leave defaults out half the time, so both spellings are exercised.
  const auto all_ones = [](const std::vector<int64_t>& v) { return std::all_of(v.begin(), v.end(), [](int64_t x) { return x == 1; }); };
  if (!all_ones(strides) || random.chance(0.5)) spec.strides = strides;
  if (!all_ones(dilations) || random.chance(0.5)) spec.dilations = dilations;
  if (explicit_pads && (use_pads || random.chance(0.5))) {
    spec.pads = pad_begin;
    spec.pads.insert(spec.pads.end(), pad_end.begin(), pad_end.end());
  }
  spec.ceil_mode = random.chance(0.4);
  spec.storage_order = random.chance(0.3) ? 1 : 0;

  HostTensor X(type, shape);
  switch (random.between(0, is_floating_point(type) ? 3 : 2)) {
    case 0: fill_with_ties(random, &X, 0.0); break;
    case 1: fill_away_from_zero(random, &X); break;
    case 2: fill_with_any_bits(random, &X); break;
    default: fill_with_ties(random, &X, random.pick(std::vector<double>{0.02, 0.1, 0.5})); break;
  }
  return MaxPoolCase{spec, max_pool_attributes(spec, random.chance(0.3)), std::move(X), random.chance(0.5)};
}

}  // namespace onnxpool_test
