#include "dispatch/cpu_dispatch.h"

#include <atomic>
#include <string>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "api/call_guard.h"
#include "dispatch/kernel_registry.h"
#include "onnxpool/pooling.h"

namespace onnxpool::detail {
namespace {

std::atomic<int> g_variant_limit{static_cast<int>(CpuVariant::kNative)};

// Higher runs more instructions; kNative is above everything.
int rank_of(CpuVariant v) {
  switch (v) {
    case CpuVariant::kBaseline: return 1;
    case CpuVariant::kAvx2: return 2;
    case CpuVariant::kAvx512: return 3;
    case CpuVariant::kNative: return 4;
  }
  return 0;
}

#if defined(__x86_64__) || defined(__i386__)
// clang's __builtin_cpu_supports knows no "f16c" (GCC's does): CPUID leaf 1,
// asked once, since in a VM each CPUID traps to the hypervisor
// (docs/design-decisions.md, "Kernel dispatch per call").
bool has_f16c() {
  static const bool f16c = [] {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    return __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 && (ecx & bit_F16C) != 0;
  }();
  return f16c;
}
#endif

// The features Halide's targets of each variant use (see ONNXPOOL_X86_TARGETS).
bool cpu_features_of(CpuVariant v) {
#if defined(__x86_64__) || defined(__i386__)
  switch (v) {
    case CpuVariant::kAvx512:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
             __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
             __builtin_cpu_supports("avx512vl") && cpu_features_of(CpuVariant::kAvx2);
    case CpuVariant::kAvx2:
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && has_f16c() &&
             __builtin_cpu_supports("avx") && cpu_features_of(CpuVariant::kBaseline);
    case CpuVariant::kBaseline:
      return __builtin_cpu_supports("sse4.1");
    case CpuVariant::kNative:
      return true;
  }
  return false;
#else
  return v == CpuVariant::kBaseline;
#endif
}

// Asked once: every call's dispatch asks (T0: 3% of a call's samples).
bool cpu_supports(CpuVariant v) {
  static const bool supported[] = {cpu_features_of(CpuVariant::kBaseline), cpu_features_of(CpuVariant::kAvx2),
                                   cpu_features_of(CpuVariant::kAvx512), cpu_features_of(CpuVariant::kNative)};
  const int rank = rank_of(v);
  return rank >= 1 && supported[rank - 1];
}

}  // namespace

bool cpu_target_allowed(size_t target) {
  if (target_info(target).backend != Backend::kCpu) return false;
  const CpuVariant v = target_info(target).cpu_variant;
  return rank_of(v) <= rank_of(static_cast<CpuVariant>(g_variant_limit.load())) && cpu_supports(v);
}

namespace {

// The first CPU target this CPU runs among those of at most `limit`'s rank.
int first_cpu_target_under(int limit_rank) {
  for (size_t t = 0; t < target_count(); ++t) {
    const TargetInfo& info = target_info(t);
    if (info.backend == Backend::kCpu && rank_of(info.cpu_variant) <= limit_rank && cpu_supports(info.cpu_variant)) {
      return static_cast<int>(t);
    }
  }
  return -1;
}

}  // namespace

int pick_cpu_target() {
  // Worked out once per limit: every call's dispatch asks (T0: 4% of a
  // call's samples went to walking the targets).
  static const int by_limit_rank[] = {first_cpu_target_under(0), first_cpu_target_under(1), first_cpu_target_under(2),
                                      first_cpu_target_under(3), first_cpu_target_under(4)};
  const int limit_rank = rank_of(static_cast<CpuVariant>(g_variant_limit.load(std::memory_order_relaxed)));
  return by_limit_rank[limit_rank];
}

namespace {

uint32_t allowed_under(int limit_rank) {
  uint32_t allowed = 0;
  for (size_t t = 0; t < target_count() && t < 32; ++t) {
    const TargetInfo& info = target_info(t);
    if (info.backend == Backend::kCpu && rank_of(info.cpu_variant) <= limit_rank && cpu_supports(info.cpu_variant)) {
      allowed |= 1u << t;
    }
  }
  return allowed;
}

}  // namespace

uint32_t allowed_cpu_targets() {
  // Worked out once per limit, as pick_cpu_target's choice is: every plan asks.
  static const uint32_t by_limit_rank[] = {allowed_under(0), allowed_under(1), allowed_under(2), allowed_under(3),
                                           allowed_under(4)};
  return by_limit_rank[rank_of(static_cast<CpuVariant>(g_variant_limit.load(std::memory_order_relaxed)))];
}

bool host_supports(CpuVariant variant) { return cpu_supports(variant); }

int cpu_variant_rank(CpuVariant variant) { return rank_of(variant); }

}  // namespace onnxpool::detail

namespace onnxpool {

Status set_cpu_variant_limit(CpuVariant limit) {
  // Guarded: its message is built on the heap.
  return detail::guarded_call("set_cpu_variant_limit", [&] {
    switch (limit) {
      case CpuVariant::kNative:
      case CpuVariant::kAvx512:
      case CpuVariant::kAvx2:
      case CpuVariant::kBaseline:
        detail::g_variant_limit.store(static_cast<int>(limit));
        return Status::ok();
    }
    return Status::invalid_argument("set_cpu_variant_limit: unknown variant " +
                                    std::to_string(static_cast<int>(limit)));
  });
}

CpuVariant active_cpu_variant() {
  const int target = detail::pick_cpu_target();
  return target < 0 ? CpuVariant::kBaseline : detail::target_info(static_cast<size_t>(target)).cpu_variant;
}

const char* cpu_variant_name(CpuVariant variant) {
  switch (variant) {
    case CpuVariant::kNative: return "native";
    case CpuVariant::kAvx512: return "avx512_skylake";
    case CpuVariant::kAvx2: return "avx2_fma_f16c";
    case CpuVariant::kBaseline: return "baseline";
  }
  return "unknown";
}

}  // namespace onnxpool
