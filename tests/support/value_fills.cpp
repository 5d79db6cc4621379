#include "support/value_fills.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <vector>

#include "support/float_type_info.h"

namespace onnxpool_test {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

void set_raw_bits(HostTensor* t, int64_t index, uint64_t bits) {
  // Little-endian hosts (x86-64, aarch64): the low bytes are the element.
  std::memcpy(static_cast<unsigned char*>(t->data()) + index * bytes_per_element(t->type()), &bits,
              bytes_per_element(t->type()));
}

double unit_interval(Random& random) { return static_cast<double>(random.bits() >> 11) * 0x1.0p-53; }

double special_value(Random& random) {
  switch (random.between(0, 2)) {
    case 0: return std::numeric_limits<double>::quiet_NaN();
    case 1: return kInf;
    default: return -kInf;
  }
}

// Half-widths of the magnitude band: wide enough that a window mixes values
// whose p-th powers differ by far more than the accumulator's precision.
int band_half_width(ElementType type) {
  switch (type) {
    case ElementType::kFloat16: return 6;
    case ElementType::kFloat64: return 40;
    default: return 20;
  }
}

// Sums of up to 2^11 values (the largest global planes) stay finite.
constexpr int kSumHeadroom = 12;

}  // namespace

void fill_with_ties(Random& random, HostTensor* X, double special_probability) {
  const bool unsigned_type = X->type() == ElementType::kUInt8;
  for (int64_t i = 0; i < X->size(); ++i) {
    double value = static_cast<double>(unsigned_type ? random.between(0, 6) : random.between(-3, 3));
    if (is_floating_point(X->type()) && random.chance(special_probability)) value = special_value(random);
    X->set(i, value);
  }
}

void fill_with_any_bits(Random& random, HostTensor* X) {
  for (int64_t i = 0; i < X->size(); ++i) {
    set_raw_bits(X, i, random.bits());
    if (is_floating_point(X->type()) && X->get(i) == 0.0) X->set(i, 0.0);
  }
}

void fill_away_from_zero(Random& random, HostTensor* X) {
  for (int64_t i = 0; i < X->size(); ++i) {
    switch (X->type()) {
      case ElementType::kInt8: X->set(i, static_cast<double>(random.between(-128, -1))); break;
      case ElementType::kUInt8: X->set(i, static_cast<double>(random.between(1, 255))); break;
      default: X->set(i, static_cast<double>(random.between(-9, -1))); break;
    }
  }
}

double band_value(Random& random, ElementType type, int low_exponent, int high_exponent) {
  const double sign = random.chance(0.5) ? -1.0 : 1.0;
  const double mantissa = 1.0 + unit_interval(random);
  const double value = sign * std::ldexp(mantissa, static_cast<int>(random.between(low_exponent, high_exponent)));
  // A mantissa just under 2 at the top exponent would round up to infinity.
  const double rounded = round_to(type, value);
  return std::isinf(rounded) ? sign * largest_finite(type) : rounded;
}

double accumulation_probe_step(ElementType type) {
  switch (type) {
    case ElementType::kFloat16: return std::ldexp(1.0, -10);
    case ElementType::kBFloat16: return std::ldexp(1.0, -7);
    default: throw std::logic_error("accumulation_probe_step: not a 16-bit float type");
  }
}

void fill_accumulation_probe(Random& random, HostTensor* X) {
  const double step = accumulation_probe_step(X->type());
  const int64_t planes = X->shape().at(0) * X->shape().at(1);
  const int64_t plane = X->size() / planes;
  if (plane % 2 != 0 || plane > 4096) throw std::logic_error("fill_accumulation_probe: plane size");
  for (int64_t p = 0; p < planes; ++p) {
    for (int64_t i = 0; i < plane / 2; ++i) {
      const int64_t f = random.between(0, 2);
      X->set(p * plane + i, 1.0 + static_cast<double>(f) * step);
      X->set(p * plane + plane / 2 + i, 1.0 + static_cast<double>(2 - f) * step);
    }
  }
}

int fill_for_sum_pool(Random& random, HostTensor* X, SumPool op) {
  const ElementType type = X->type();
  const int kind = static_cast<int>(random.between(0, 19));
  if (kind < 4) {  // small integers
    for (int64_t i = 0; i < X->size(); ++i) X->set(i, static_cast<double>(random.between(-3, 3)));
    return 0;
  }
  if (kind < 7) {  // reals in [-1, 1]
    for (int64_t i = 0; i < X->size(); ++i) X->set(i, 2.0 * unit_interval(random) - 1.0);
    return 0;
  }
  if (kind < 9) {  // mostly zeros, of either sign: windows of nothing but zeros
    for (int64_t i = 0; i < X->size(); ++i) {
      const bool nonzero = random.chance(0.15);
      X->set(i, nonzero ? static_cast<double>(random.between(1, 3)) : 0.0);
      if (random.chance(0.5)) X->set(i, -X->get(i));
    }
    return 0;
  }
  if (kind < 14) {  // small integers or reals, with NaN and infinities, or with infinities of one sign only
    const double special_probability = random.pick(std::vector<double>{0.005, 0.02, 0.1, 0.5});
    const bool integers = random.chance(0.5);
    const int only_sign = random.pick(std::vector<int>{0, 0, 1, -1});  // 0: NaN, +inf and -inf
    for (int64_t i = 0; i < X->size(); ++i) {
      double value = integers ? static_cast<double>(random.between(-3, 3)) : 2.0 * unit_interval(random) - 1.0;
      if (random.chance(special_probability)) value = only_sign == 0 ? special_value(random) : only_sign * kInf;
      X->set(i, value);
    }
    return 0;
  }
  // A band of magnitudes somewhere in the type's range: at its bottom
  // (subnormals), at its top, or anywhere.
  const bool sum_may_overflow = op == SumPool::kAverage && type != ElementType::kFloat16;
  const int low = smallest_exponent(type);
  const int high = largest_exponent(type) - (sum_may_overflow ? kSumHeadroom : 0);
  const int w = band_half_width(type);
  int center = 0;
  switch (random.between(0, 2)) {
    case 0: center = low + static_cast<int>(random.between(0, w)); break;
    case 1: center = high - static_cast<int>(random.between(0, w)); break;
    default: center = static_cast<int>(random.between(low, high)); break;
  }
  const int band_low = std::max(low, center - w);
  const int band_high = std::min(high, center + w);
  for (int64_t i = 0; i < X->size(); ++i) {
    X->set(i, random.chance(0.05) ? 0.0 : band_value(random, type, band_low, band_high));
  }
  return center;
}

void fill_for_global_max(Random& random, HostTensor* X) {
  switch (random.between(0, 4)) {
    case 0: fill_with_ties(random, X, 0.0); break;
    case 1: fill_away_from_zero(random, X); break;
    case 2: fill_with_any_bits(random, X); break;
    case 3: fill_with_ties(random, X, random.pick(std::vector<double>{0.001, 0.02, 0.1})); break;
    default: {  // infinities of both signs but no NaN
      fill_with_ties(random, X, 0.0);
      const double probability = random.pick(std::vector<double>{0.001, 0.02, 0.1});
      for (int64_t i = 0; i < X->size(); ++i) {
        if (random.chance(probability)) X->set(i, random.chance(0.5) ? kInf : -kInf);
      }
      break;
    }
  }
}

}  // namespace onnxpool_test
