#include "kernel_slots.h"

#include <array>
#include <atomic>
#include <utility>

namespace onnxpool_tune {
namespace {

using onnxpool::detail::kMaxTargets;
using RunFunction = int (*)(void**);

// Enough for every kernel of a build (about 100) on every target.
constexpr size_t kMaxSlots = 256 * kMaxTargets;

std::array<RunFunction, kMaxSlots> g_current{};
std::array<KernelFunctions, kMaxSlots> g_builtin{};
std::array<std::atomic<uint64_t>, kMaxSlots> g_calls{};

size_t slot_number(const Slot& slot) { return slot.kernel * kMaxTargets + slot.target; }

// One wrapper per slot: a call carries no word of which slot it came from.
template <size_t I>
int counting_run(void** args) {
  g_calls[I].fetch_add(1, std::memory_order_relaxed);
  return g_current[I](args);
}

template <size_t... I>
constexpr std::array<RunFunction, sizeof...(I)> make_wrappers(std::index_sequence<I...>) {
  return {&counting_run<I>...};
}

const std::array<RunFunction, kMaxSlots> kWrappers = make_wrappers(std::make_index_sequence<kMaxSlots>());

}  // namespace

void install_counters() {
  const size_t kernels = onnxpool::detail::kernel_count();
  if (kernels * kMaxTargets > kMaxSlots) std::abort();  // a build this large needs a larger kMaxSlots
  for (size_t k = 0; k < kernels; ++k) {
    const KernelEntry& entry = onnxpool::detail::kernel_at(k);
    for (size_t t = 0; t < onnxpool::detail::target_count(); ++t) {
      if (entry.run[t] == nullptr) continue;
      const size_t n = slot_number({k, t});
      g_builtin[n] = {entry.run[t], entry.metadata[t]};
      g_current[n] = entry.run[t];
      onnxpool::detail::replace_kernel_functions(entry, t, {kWrappers[n], entry.metadata[t]});
    }
  }
}

uint64_t calls(const Slot& slot) { return g_calls[slot_number(slot)].load(); }

std::vector<std::string> slots_called() {
  std::vector<std::string> called;
  for (size_t k = 0; k < onnxpool::detail::kernel_count(); ++k) {
    for (size_t t = 0; t < onnxpool::detail::target_count(); ++t) {
      if (g_calls[slot_number({k, t})].load() != 0) {
        called.push_back(std::string(onnxpool::detail::kernel_at(k).name) + "@" + std::to_string(t));
      }
    }
  }
  return called;
}

void reset_counts() {
  for (auto& count : g_calls) count.store(0);
}

void use_candidate(const Slot& slot, KernelFunctions functions) {
  const size_t n = slot_number(slot);
  g_current[n] = functions.run;
  onnxpool::detail::replace_kernel_functions(onnxpool::detail::kernel_at(slot.kernel), slot.target,
                                             {kWrappers[n], functions.metadata});
}

void restore_builtin(const Slot& slot) { use_candidate(slot, g_builtin[slot_number(slot)]); }

bool find_slot(const std::string& name, size_t target, Slot* slot, std::string* error) {
  size_t kernel = onnxpool::detail::kernel_count();
  for (size_t k = 0; k < onnxpool::detail::kernel_count(); ++k) {
    if (name == onnxpool::detail::kernel_at(k).name) kernel = k;
  }
  if (kernel == onnxpool::detail::kernel_count()) {
    *error = "this library has no kernel " + name;
    return false;
  }
  if (target >= onnxpool::detail::target_count() || onnxpool::detail::kernel_at(kernel).run[target] == nullptr) {
    *error = "this library has no build of " + name + " for target " + std::to_string(target);
    return false;
  }
  *slot = Slot{kernel, target};
  return true;
}

}  // namespace onnxpool_tune
