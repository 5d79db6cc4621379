#include "support/float_type_info.h"

#include <cfloat>
#include <cmath>
#include <stdexcept>

namespace onnxpool_test {

const std::vector<ElementType>& float_types() {
  static const std::vector<ElementType> types{ElementType::kFloat32, ElementType::kFloat16, ElementType::kBFloat16,
                                              ElementType::kFloat64};
  return types;
}

int smallest_exponent(ElementType type) {
  switch (type) {
    case ElementType::kFloat16: return -24;   // 14 below 1 for the normals, 10 mantissa bits
    case ElementType::kBFloat16: return -133;  // -126, 7 mantissa bits
    case ElementType::kFloat32: return -149;   // -126, 23 mantissa bits
    case ElementType::kFloat64: return -1074;  // -1022, 52 mantissa bits
    default: throw std::logic_error("smallest_exponent: not a float type");
  }
}

int largest_exponent(ElementType type) {
  switch (type) {
    case ElementType::kFloat16: return 15;
    case ElementType::kBFloat16: return 127;
    case ElementType::kFloat32: return 127;
    case ElementType::kFloat64: return 1023;
    default: throw std::logic_error("largest_exponent: not a float type");
  }
}

double smallest_subnormal(ElementType type) { return std::ldexp(1.0, smallest_exponent(type)); }

double largest_finite(ElementType type) {
  switch (type) {
    case ElementType::kFloat16: return 65504.0;
    case ElementType::kBFloat16: return std::ldexp(255.0, 120);  // 0x7F7F
    case ElementType::kFloat32: return FLT_MAX;
    case ElementType::kFloat64: return DBL_MAX;
    default: throw std::logic_error("largest_finite: not a float type");
  }
}

double round_to(ElementType type, double value) {
  HostTensor one(type, {1});
  one.set(0, value);
  return one.get(0);
}

double accumulator_unit_roundoff(ElementType type) {
  return type == ElementType::kFloat64 ? std::ldexp(1.0, -53) : std::ldexp(1.0, -24);
}

}  // namespace onnxpool_test
