#include "execute/element_values.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "execute/half_widening.h"

namespace onnxpool::detail {
namespace {

template <typename Int>
Int clamped(double value) {
  if (std::isnan(value)) return Int{0};
  const double lo = static_cast<double>(std::numeric_limits<Int>::lowest());
  const double hi = static_cast<double>(std::numeric_limits<Int>::max());
  return static_cast<Int>(std::clamp(value, lo, hi));
}

}  // namespace

double load_element(const void* data, ElementType type, int64_t i) {
  switch (type) {
    case ElementType::kFloat32: return static_cast<const float*>(data)[i];
    case ElementType::kFloat64: return static_cast<const double*>(data)[i];
    case ElementType::kFloat16: return float16_to_float(static_cast<const uint16_t*>(data)[i]);
    case ElementType::kBFloat16: return bfloat16_to_float(static_cast<const uint16_t*>(data)[i]);
    case ElementType::kInt8: return static_cast<const int8_t*>(data)[i];
    case ElementType::kUInt8: return static_cast<const uint8_t*>(data)[i];
    case ElementType::kInt64: return static_cast<double>(static_cast<const int64_t*>(data)[i]);
  }
  return 0.0;
}

void store_element(void* data, ElementType type, int64_t i, double value) {
  switch (type) {
    case ElementType::kFloat32: static_cast<float*>(data)[i] = static_cast<float>(value); break;
    case ElementType::kFloat64: static_cast<double*>(data)[i] = value; break;
    case ElementType::kFloat16: static_cast<uint16_t*>(data)[i] = float_to_float16(static_cast<float>(value)); break;
    case ElementType::kBFloat16: static_cast<uint16_t*>(data)[i] = float_to_bfloat16(static_cast<float>(value)); break;
    case ElementType::kInt8: static_cast<int8_t*>(data)[i] = clamped<int8_t>(value); break;
    case ElementType::kUInt8: static_cast<uint8_t*>(data)[i] = clamped<uint8_t>(value); break;
    case ElementType::kInt64: {
      // 2^63 is a double, INT64_MAX is not: clamp below it.
      const double top = 9223372036854775807.0;
      static_cast<int64_t*>(data)[i] = std::isnan(value)  ? 0
                                       : value >= top      ? std::numeric_limits<int64_t>::max()
                                       : value <= -top     ? std::numeric_limits<int64_t>::lowest()
                                                           : static_cast<int64_t>(value);
      break;
    }
  }
}

}  // namespace onnxpool::detail
