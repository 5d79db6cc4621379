#include "tolerance_overrides.h"

namespace onnxpool_runner {

namespace {

// Keep this list short, and give each entry the evidence. An entry never
// applies to exact comparisons (MaxPool, GlobalMaxPool, integers).
const ToleranceOverride kToleranceOverrides[] = {
    // onnx's generator (onnx/backend/test/case/node/averagepool.py, onnx
    // 1.23.2) writes this expectation as literals typed to four decimals:
    // y = [0.1511, 0.2841, 0.3572] for the exact means 1.3595/9 = 0.151056,
    // 2.5564/9 = 0.284044 and 3.2150/9 = 0.357222 (relative error up to
    // 2.9e-4; 0.2841 is also off in its fourth decimal). The regenerated
    // case and the published copy hold the same rounded numbers, so no copy
    // of the data is more precise. rtol 1e-3, atol 1e-7 are what ONNX's own
    // backend tests use for every node case (expect() in
    // onnx/backend/test/case/node/__init__.py records them), the tolerance
    // this expectation was written for.
    {"test_averagepool_2d_ceil_last_window_starts_on_pad", {1e-3, 1e-7},
     "expected values published rounded to 4 decimals; ONNX's default rtol 1e-3, atol 1e-7"},
};

}  // namespace

const ToleranceOverride* find_tolerance_override(const std::string& case_name) {
  for (const ToleranceOverride& entry : kToleranceOverrides) {
    if (case_name == entry.case_name) return &entry;
  }
  return nullptr;
}

}  // namespace onnxpool_runner
