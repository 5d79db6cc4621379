// Makes every windowed call with a segment plan take it
// (runtime/execute/window_segments.h), so small nodes exercise the segments, and
// restores the real choice however a test ends. For white-box tests that
// see the runtime's headers.
#pragma once

#include "execute/window_segments.h"

namespace onnxpool_test {

struct SegmentsWheneverPlanned {
  SegmentsWheneverPlanned() { onnxpool::detail::set_segments_for_testing(0, true); }
  ~SegmentsWheneverPlanned() { onnxpool::detail::set_segments_for_testing(-1, false); }
};

}  // namespace onnxpool_test
