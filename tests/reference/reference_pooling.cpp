#include "reference/reference_pooling.h"

#include <cmath>
#include <functional>
#include <stdexcept>
#include <vector>

namespace onnxpool_test {
namespace {

using Index = std::vector<int64_t>;

// Calls visit(index) for every multi-index of `extents`, last axis fastest.
void for_each_index(const Index& extents, const std::function<void(const Index&)>& visit) {
  for (int64_t extent : extents) {
    if (extent <= 0) return;
  }
  Index index(extents.size(), 0);
  while (true) {
    visit(index);
    size_t axis = extents.size();
    while (axis > 0) {
      --axis;
      if (++index[axis] < extents[axis]) break;
      index[axis] = 0;
      if (axis == 0) return;
    }
    if (extents.empty()) return;
  }
}

int64_t row_major_offset(const Index& position, const Index& extents) {
  int64_t offset = 0;
  for (size_t axis = 0; axis < extents.size(); ++axis) offset = offset * extents[axis] + position[axis];
  return offset;
}

// First spatial axis fastest: the storage_order = 1 encoding of MaxPool Indices.
int64_t column_major_offset(const Index& position, const Index& extents) {
  int64_t offset = 0;
  for (size_t axis = extents.size(); axis > 0; --axis) offset = offset * extents[axis - 1] + position[axis - 1];
  return offset;
}

struct Tap {
  Index position;            // input coordinates; may lie in the padding
  bool inside_input;         // in [0, in)
  bool inside_padded_input;  // in [-pad_begin, in + pad_end)
};

// The taps of the window for one output position, in row-major kernel order.
std::vector<Tap> window_taps(const WindowGeometry& g, const Index& output_position) {
  std::vector<Tap> taps;
  for_each_index(g.kernel, [&](const Index& kernel_offset) {
    Tap tap{Index(g.rank()), true, true};
    for (size_t axis = 0; axis < g.rank(); ++axis) {
      // In 128 bits: with strides, dilations or pads near INT64_MAX the
      // position of a tap in the padding can pass int64.
      using Wide = __int128;
      const Wide x = Wide{output_position[axis]} * g.strides[axis] - g.pad_begin[axis] +
                     Wide{kernel_offset[axis]} * g.dilations[axis];
      tap.inside_input = tap.inside_input && x >= 0 && x < g.input[axis];
      tap.inside_padded_input =
          tap.inside_padded_input && x >= -Wide{g.pad_begin[axis]} && x < Wide{g.input[axis]} + g.pad_end[axis];
      // Only a tap inside the input is ever looked up by its position.
      tap.position[axis] = x >= 0 && x < g.input[axis] ? static_cast<int64_t>(x) : -1;
    }
    taps.push_back(tap);
  });
  return taps;
}

struct Layout {
  int64_t batch = 0;
  int64_t channels = 0;
  Index spatial;
};

Layout layout_of(const HostTensor& X, size_t min_rank, size_t max_rank) {
  const auto& shape = X.shape();
  if (shape.size() < min_rank || shape.size() > max_rank) {
    throw std::invalid_argument("reference: unsupported input rank " + shape_to_string(shape));
  }
  return Layout{shape[0], shape[1], Index(shape.begin() + 2, shape.end())};
}

Index output_shape(const Layout& layout, const Index& spatial) {
  Index shape{layout.batch, layout.channels};
  shape.insert(shape.end(), spatial.begin(), spatial.end());
  return shape;
}

// Visits every (plane, output position) of a windowed operator, handing over
// the plane's first input element and the window's taps.
void for_each_window(const WindowGeometry& g, const Layout& layout,
                     const std::function<void(int64_t output_index, int64_t plane_start,
                                              const std::vector<Tap>& taps)>& visit) {
  // No window to visit: billions of planes without an output position once
  // took this loop minutes (found by api_fuzzer).
  if (layout.batch * layout.channels == 0 || element_count(g.output) == 0) return;
  const int64_t input_plane = element_count(layout.spatial);
  const int64_t output_plane = element_count(g.output);
  for (int64_t plane = 0; plane < layout.batch * layout.channels; ++plane) {
    for_each_index(g.output, [&](const Index& output_position) {
      visit(plane * output_plane + row_major_offset(output_position, g.output), plane * input_plane,
            window_taps(g, output_position));
    });
  }
}

// sqrt is correctly rounded; pow(x, 0.5) need not be, and p = 2 is the common case.
double pth_root(double sum, double p) { return p == 2.0 ? std::sqrt(sum) : std::pow(sum, 1.0 / p); }

constexpr size_t kMinRank = 3;
constexpr size_t kMaxWindowedRank = 5;
constexpr size_t kAnyRank = 64;

}  // namespace

MaxPoolResult reference_max_pool(const PoolSpec& spec, const HostTensor& X) {
  const Layout layout = layout_of(X, kMinRank, kMaxWindowedRank);
  const WindowGeometry g = window_geometry(spec, layout.spatial);
  if (spec.storage_order != 0 && spec.storage_order != 1) throw std::invalid_argument("reference: storage_order");
  MaxPoolResult result{HostTensor(X.type(), output_shape(layout, g.output)),
                       HostTensor(ElementType::kInt64, output_shape(layout, g.output))};

  for_each_window(g, layout, [&](int64_t out, int64_t plane_start, const std::vector<Tap>& taps) {
    const Tap* best = nullptr;
    double best_value = 0.0;
    for (const Tap& tap : taps) {
      if (!tap.inside_input) continue;  // padding never takes part in a max
      const double value = X.get(plane_start + row_major_offset(tap.position, g.input));
      if (best == nullptr || std::isnan(value) || value > best_value) {
        best = &tap;
        best_value = value;
      }
      if (std::isnan(value)) break;  // the first NaN decides the window
    }
    if (best == nullptr) {
      result.Y.set(out, lowest_value(X.type()));
      result.Indices.set_int64(out, -1);
      return;
    }
    const int64_t row_major = row_major_offset(best->position, g.input);
    result.Y.copy_element(out, X, plane_start + row_major);
    const int64_t encoded = spec.storage_order == 1 ? column_major_offset(best->position, g.input) : row_major;
    result.Indices.set_int64(out, plane_start + encoded);
  });
  return result;
}

HostTensor reference_average_pool(const PoolSpec& spec, const HostTensor& X) {
  const Layout layout = layout_of(X, kMinRank, kMaxWindowedRank);
  const WindowGeometry g = window_geometry(spec, layout.spatial);
  HostTensor Y(ElementType::kFloat64, output_shape(layout, g.output));
  for_each_window(g, layout, [&](int64_t out, int64_t plane_start, const std::vector<Tap>& taps) {
    double sum = 0.0;
    int64_t divisor = 0;
    for (const Tap& tap : taps) {
      if (tap.inside_input) sum += X.get(plane_start + row_major_offset(tap.position, g.input));
      if (spec.count_include_pad ? tap.inside_padded_input : tap.inside_input) ++divisor;
    }
    Y.set(out, sum / static_cast<double>(divisor));
  });
  return Y;
}

HostTensor reference_lp_pool(const PoolSpec& spec, const HostTensor& X) {
  const Layout layout = layout_of(X, kMinRank, kMaxWindowedRank);
  const WindowGeometry g = window_geometry(spec, layout.spatial);
  const double p = static_cast<double>(spec.p);
  HostTensor Y(ElementType::kFloat64, output_shape(layout, g.output));
  for_each_window(g, layout, [&](int64_t out, int64_t plane_start, const std::vector<Tap>& taps) {
    double sum = 0.0;
    for (const Tap& tap : taps) {
      if (tap.inside_input) sum += std::pow(std::fabs(X.get(plane_start + row_major_offset(tap.position, g.input))), p);
    }
    Y.set(out, pth_root(sum, p));
  });
  return Y;
}

namespace {

// Calls reduce(plane_start, plane_size, plane) for every [n, c] plane.
void for_each_plane(const Layout& layout, const std::function<void(int64_t, int64_t, int64_t)>& reduce) {
  // No plane: its extents may multiply past int64 (found by api_fuzzer).
  if (layout.batch * layout.channels == 0) return;
  const int64_t plane_size = element_count(layout.spatial);
  if (plane_size < 1) throw std::invalid_argument("reference: global pooling of an empty plane");
  for (int64_t plane = 0; plane < layout.batch * layout.channels; ++plane) {
    reduce(plane * plane_size, plane_size, plane);
  }
}

Index global_output_shape(const Layout& layout) { return output_shape(layout, Index(layout.spatial.size(), 1)); }

}  // namespace

HostTensor reference_global_max_pool(const HostTensor& X) {
  const Layout layout = layout_of(X, kMinRank, kAnyRank);
  HostTensor Y(X.type(), global_output_shape(layout));
  for_each_plane(layout, [&](int64_t start, int64_t size, int64_t plane) {
    int64_t best = start;
    for (int64_t i = start; i < start + size; ++i) {
      if (std::isnan(X.get(i))) {
        best = i;
        break;
      }
      if (X.get(i) > X.get(best)) best = i;
    }
    Y.copy_element(plane, X, best);
  });
  return Y;
}

HostTensor reference_global_average_pool(const HostTensor& X) {
  const Layout layout = layout_of(X, kMinRank, kAnyRank);
  HostTensor Y(ElementType::kFloat64, global_output_shape(layout));
  for_each_plane(layout, [&](int64_t start, int64_t size, int64_t plane) {
    double sum = 0.0;
    for (int64_t i = start; i < start + size; ++i) sum += X.get(i);
    Y.set(plane, sum / static_cast<double>(size));
  });
  return Y;
}

HostTensor reference_global_lp_pool(const HostTensor& X, int64_t p) {
  const Layout layout = layout_of(X, kMinRank, kAnyRank);
  HostTensor Y(ElementType::kFloat64, global_output_shape(layout));
  const double exponent = static_cast<double>(p);
  for_each_plane(layout, [&](int64_t start, int64_t size, int64_t plane) {
    double sum = 0.0;
    for (int64_t i = start; i < start + size; ++i) sum += std::pow(std::fabs(X.get(i)), exponent);
    Y.set(plane, pth_root(sum, exponent));
  });
  return Y;
}

}  // namespace onnxpool_test
