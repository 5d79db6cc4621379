#include "execute/float_magnitudes.h"

#include <algorithm>

#include "onnxpool/pooling.h"
#include "platform/thread_pool.h"

namespace onnxpool::detail {
namespace {

// Unsigned min and max vectorize on AVX2 and NEON but not on x86-64's SSE2
// baseline, where these loops ran 4x slower; the x86 build compiles an AVX2
// copy too and picks one when the library loads (docs/design-decisions.md,
// "Lp: float32 sums, checked after they run").
#if defined(__x86_64__) && defined(__GNUC__)
#define ONNXPOOL_ALSO_FOR_AVX2 __attribute__((target_clones("avx2", "default")))
#else
#define ONNXPOOL_ALSO_FOR_AVX2
#endif

ONNXPOOL_ALSO_FOR_AVX2 MagnitudeRange float32_magnitudes(const uint32_t* bits, int64_t count) {
  uint32_t smallest = 0xFFFFFFFFu, largest = 0;
  for (int64_t i = 0; i < count; ++i) {
    const uint32_t magnitude = bits[i] & 0x7FFFFFFFu;
    smallest = smallest < magnitude ? smallest : magnitude;
    largest = largest > magnitude ? largest : magnitude;
  }
  return {smallest, largest};
}

ONNXPOOL_ALSO_FOR_AVX2 MagnitudeRange bfloat16_magnitudes(const uint16_t* bits, int64_t count) {
  uint32_t smallest = 0xFFFFFFFFu, largest = 0;
  for (int64_t i = 0; i < count; ++i) {
    const uint32_t magnitude = (static_cast<uint32_t>(bits[i]) << 16) & 0x7FFFFFFFu;
    smallest = smallest < magnitude ? smallest : magnitude;
    largest = largest > magnitude ? largest : magnitude;
  }
  return {smallest, largest};
}

constexpr int64_t kMostShares = 64;

}  // namespace

MagnitudeRange magnitudes(const TensorView& t, int64_t first, int64_t count) {
  return t.type == ElementType::kBFloat16 ? bfloat16_magnitudes(static_cast<const uint16_t*>(t.data) + first, count)
                                          : float32_magnitudes(static_cast<const uint32_t*>(t.data) + first, count);
}

// Each thread reads an equal contiguous share, as the kernels' tasks are
// shared out (thread_pool.h), so that each mostly reads what its own core
// just wrote, not what the other core's cache holds.
MagnitudeRange magnitudes_in_parallel(const TensorView& t, int64_t count) {
  constexpr int64_t kMinElementsPerShare = 16 * 1024;
  const int64_t shares =
      std::clamp<int64_t>(std::min<int64_t>(num_threads(), count / kMinElementsPerShare), 1, kMostShares);
  if (shares == 1) return magnitudes(t, 0, count);
  struct Job {
    const TensorView* t;
    int64_t count, shares;
    MagnitudeRange ranges[kMostShares];
  } job{&t, count, shares, {}};
  parallel_for(
      nullptr,
      [](void*, int share, uint8_t* closure) {
        Job& j = *reinterpret_cast<Job*>(closure);
        const int64_t begin = j.count * share / j.shares, end = j.count * (share + 1) / j.shares;
        j.ranges[share] = magnitudes(*j.t, begin, end - begin);
        return 0;
      },
      0, static_cast<int>(shares), reinterpret_cast<uint8_t*>(&job));
  MagnitudeRange all;
  for (int64_t i = 0; i < shares; ++i) {
    all.smallest = std::min(all.smallest, job.ranges[i].smallest);
    all.largest = std::max(all.largest, job.ranges[i].largest);
  }
  return all;
}

}  // namespace onnxpool::detail
