// Halide runtime hooks. The default error handler prints and aborts the
// process; a library must never do that, so errors land in the CallContext.
#include "halide_glue.h"

#include "thread_pool.h"

#include <HalideRuntime.h>

#include <algorithm>
#include <atomic>
#include <initializer_list>
#include <string>
#include <mutex>
#include <thread>

#include "onnxpool/pooling.h"

namespace onnxpool::detail {
namespace {

std::atomic<int> g_threads{0};
std::atomic<int> g_variant_limit{static_cast<int>(CpuVariant::kNative)};

void on_halide_error(void* user_context, const char* message) {
  if (user_context != nullptr) static_cast<CallContext*>(user_context)->error += message;
}

bool has_feature(const uint64_t* features, int count, halide_target_feature_t f) {
  const int word = f / 64;
  return word < count && (features[word] >> (f % 64)) & 1;
}

// The multi-target wrapper asks this for each variant, best first; refusing
// the ones above the limit makes it fall through to the next.
int can_use_features(int count, const uint64_t* features) {
  const auto limit = static_cast<CpuVariant>(g_variant_limit.load());
  const bool wants_avx512 = has_feature(features, count, halide_target_feature_avx512);
  const bool wants_avx2 = has_feature(features, count, halide_target_feature_avx2);
  if (limit == CpuVariant::kBaseline && (wants_avx2 || wants_avx512)) return 0;
  if (limit == CpuVariant::kAvx2 && wants_avx512) return 0;
  return halide_default_can_use_target_features(count, features);
}

int hardware_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

void apply_thread_count() {
  const int n = g_threads.load();
  set_parallel_threads(n == 0 ? hardware_threads() : n);
}

int do_par_for(void* user_context, halide_task_t task, int min, int size, uint8_t* closure) {
  return parallel_for(user_context, task, min, size, closure);
}

// True when the dispatcher may pick code compiled with all of `wanted`.
bool variant_usable(std::initializer_list<halide_target_feature_t> wanted) {
  constexpr int kWords = (halide_target_feature_end + 63) / 64;
  uint64_t features[kWords] = {};
  for (halide_target_feature_t f : wanted) features[f / 64] |= uint64_t(1) << (f % 64);
  return can_use_features(kWords, features) != 0;
}

}  // namespace

void ensure_halide_configured() {
  static std::once_flag once;
  std::call_once(once, [] {
    halide_set_error_handler(on_halide_error);
    halide_set_custom_can_use_target_features(can_use_features);
    halide_set_custom_do_par_for(do_par_for);
    apply_thread_count();
  });
}

}  // namespace onnxpool::detail

namespace onnxpool {

Status set_num_threads(int threads) {
  if (threads < 0) {
    return Status::invalid_argument("set_num_threads: threads must be >= 0 (0 = one per hardware thread), got " +
                                    std::to_string(threads));
  }
  detail::ensure_halide_configured();
  detail::g_threads.store(threads);
  detail::apply_thread_count();
  return Status::ok();
}

int num_threads() {
  const int n = detail::g_threads.load();
  return n == 0 ? detail::hardware_threads() : n;
}

Status set_cpu_variant_limit(CpuVariant limit) {
  switch (limit) {
    case CpuVariant::kNative:
    case CpuVariant::kAvx512:
    case CpuVariant::kAvx2:
    case CpuVariant::kBaseline:
      detail::g_variant_limit.store(static_cast<int>(limit));
      return Status::ok();
  }
  return Status::invalid_argument("set_cpu_variant_limit: unknown variant " + std::to_string(static_cast<int>(limit)));
}

CpuVariant active_cpu_variant() {
  detail::ensure_halide_configured();
  using namespace detail;
  if (variant_usable({halide_target_feature_sse41, halide_target_feature_avx, halide_target_feature_f16c,
                      halide_target_feature_fma, halide_target_feature_avx2, halide_target_feature_avx512,
                      halide_target_feature_avx512_skylake})) {
    return CpuVariant::kAvx512;
  }
  if (variant_usable({halide_target_feature_sse41, halide_target_feature_avx, halide_target_feature_f16c,
                      halide_target_feature_fma, halide_target_feature_avx2})) {
    return CpuVariant::kAvx2;
  }
  return CpuVariant::kBaseline;
}

const char* cpu_variant_name(CpuVariant variant) {
  switch (variant) {
    case CpuVariant::kNative: return "native";
    case CpuVariant::kAvx512: return "avx512_skylake";
    case CpuVariant::kAvx2: return "avx2_fma_f16c";
    case CpuVariant::kBaseline: return "sse41";
  }
  return "unknown";
}

}  // namespace onnxpool
