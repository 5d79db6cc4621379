#include "reference_pool.h"

#include <cstddef>
#include <limits>

namespace onnxpool_bench {

MaxPoolResult reference_max_pool(const PoolCase& pc, const float* input_nchw) {
  const int64_t out_h = pc.out_h();
  const int64_t out_w = pc.out_w();
  MaxPoolResult result;
  result.values.resize(static_cast<size_t>(pc.output_elements()));
  result.indices.resize(result.values.size());

  size_t out = 0;
  for (int64_t plane = 0; plane < pc.n * pc.c; ++plane) {
    const int64_t plane_offset = plane * pc.h * pc.w;
    const float* x = input_nchw + plane_offset;
    for (int64_t oy = 0; oy < out_h; ++oy) {
      for (int64_t ox = 0; ox < out_w; ++ox, ++out) {
        float best = -std::numeric_limits<float>::infinity();
        int64_t best_index = -1;
        for (int64_t ky = 0; ky < pc.kernel_h; ++ky) {
          const int64_t y = oy * pc.stride_h - pc.pad_top + ky;
          if (y < 0 || y >= pc.h) continue;
          for (int64_t kx = 0; kx < pc.kernel_w; ++kx) {
            const int64_t xx = ox * pc.stride_w - pc.pad_left + kx;
            if (xx < 0 || xx >= pc.w) continue;
            const float v = x[y * pc.w + xx];
            // Strictly greater keeps the first maximum; the test data has no NaN.
            if (best_index < 0 || v > best) {
              best = v;
              best_index = plane_offset + y * pc.w + xx;
            }
          }
        }
        result.values[out] = best;
        result.indices[out] = best_index;
      }
    }
  }
  return result;
}

}  // namespace onnxpool_bench
