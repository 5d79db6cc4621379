// Boxes of elements over planes, as the runtime's host-side loops walk
// them: a box's extents per spatial axis (ONNX order), element strides per
// axis and then the plane's.
#pragma once

#include <cstdint>
#include <vector>

namespace onnxpool::detail {

// Row-major element strides of a plane of `extents`, then the plane's.
inline std::vector<int64_t> dense_strides(const std::vector<int64_t>& extents) {
  std::vector<int64_t> strides(extents.size() + 1);
  int64_t stride = 1;
  for (size_t i = extents.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= extents[i];
  }
  strides[extents.size()] = stride;
  return strides;
}

// Visits every element of a box of `extents` over `planes` planes, with its
// coordinates in the box.
template <typename F>
void for_each_in_box(int64_t planes, const std::vector<int64_t>& extents, F f) {
  const size_t rank = extents.size();
  for (int64_t e : extents) {
    if (e == 0) return;
  }
  std::vector<int64_t> at(rank, 0);
  for (int64_t p = 0; p < planes; ++p) {
    while (true) {
      f(p, at);
      size_t i = rank;
      while (i > 0 && ++at[i - 1] == extents[i - 1]) at[--i] = 0;
      if (i == 0) break;
    }
  }
}

inline int64_t offset_of(int64_t plane, const std::vector<int64_t>& at, const std::vector<int64_t>& strides) {
  int64_t offset = plane * strides[at.size()];
  for (size_t i = 0; i < at.size(); ++i) offset += at[i] * strides[i];
  return offset;
}

}  // namespace onnxpool::detail
