// Plan::describe: the plan in words, for logs and bug reports.
#include "plan/plan.h"

#include "plan/tensor_checks.h"

namespace onnxpool::detail {
namespace {

std::string target_name(int target) {
  if (target < 0) return "none";
  const TargetInfo& info = target_info(static_cast<size_t>(target));
  if (info.backend != Backend::kCpu) return backend_name(info.backend);
  return std::string("cpu ") + cpu_variant_name(info.cpu_variant);
}

}  // namespace

std::string Plan::describe() const {
  std::string text = std::string(op_name(op)) + " " + element_type_name(type) + " -> Y " +
                     shape_string(output_shape) + (device == Device::kCuda ? " (CUDA device tensors)" : "");
  text += "; route: " + std::string(route_name(route));
  if (route == Route::kNothing || route == Route::kWindowsWithoutInput) return text;
  if (folded_axes > 0) text += "; leading axes folded into planes: " + std::to_string(folded_axes);
  text += "; kernel: " + std::string(launch.kernel->name);
  if (exact != nullptr) text += " (flagged planes: " + std::string(exact->name) + ")";
  if (route == Route::kCoveredAxesFirst) text += " after " + std::string(reduce.kernel->name);
  if (widened) text += " as float32 on widened copies";
  text += "; target: " + target_name(launch.target);
  if (target_reason != nullptr) text += " (" + std::string(target_reason) + ")";
  text += "; threads: " + std::to_string(launch.settings.threads);
  text += "; candidates:";
  for (const Verdict& v : verdicts) {
    text += std::string(" ") + v.candidate + (v.declined_because ? std::string(" declined (") + v.declined_because + ")"
                                                                 : std::string(" accepted"));
    if (&v != &verdicts.back()) text += ",";
  }
  return text;
}

}  // namespace onnxpool::detail
