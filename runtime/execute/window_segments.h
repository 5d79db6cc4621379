// Calls whose windows reach far into the padding, run so that their cost is
// that of the taps inside X, not of kernel_shape and pads.
//
// Valid ONNX allows pads and kernels far larger than the input (SAME with a
// kernel of 65536 along an axis of 8; pads of a million). One kernel call
// evaluates every output's whole window, and the taps that are padding for
// every window are already dropped (window_geometry.cpp), but each window
// still spans about as many taps as the outputs' windows together reach:
// 8 elements, kernel 10^6 and pads 10^6 made 10^6 outputs of 10^6 taps.
// Here each spatial axis's outputs are cut into segments by where their
// windows lie: wholly in the padding, clipped at the start, inside X (or
// covering all of it), clipped at the end, wholly past it. Each segment is
// a kernel call on the input positions its windows reach, with the taps
// that are padding for all of that segment's windows dropped. Windows that
// cover all of X along an axis differ only by where their taps fall modulo
// the dilation, so a run of them repeats with a period of
// dilation / gcd(stride, dilation) outputs: one period is computed (in
// chunks whose windows start within about X's length of each other) and
// the rest copied. The calls of all axes' segments are their Cartesian
// product, each a box of Y written in place.
//
// AveragePool with count_include_pad = 1 counts padding taps in its
// divisor, which a call without those taps cannot know: its segments divide
// by the taps inside X, and each output is then scaled by
// (taps inside X) / (taps counted), worked out per axis.
//
// Ordinary calls are left alone: segments are used only when one call would
// evaluate at least min_taps_for_segments() taps and twice what the
// segments cost. CUDA device tensors run their segments on host copies of
// X and Y (launch_in_segments_through_host).
#pragma once

#include <cstdint>

#include "execute/kernel_launch.h"
#include "onnxpool/status.h"

namespace onnxpool::detail {

// The fewest taps (planes x outputs x taps per window) a call must cost
// before segments are considered.
constexpr int64_t kMinTapsForSegments = int64_t{1} << 24;
// What one kernel call costs besides its taps, counted in taps: a few
// microseconds of buffer set-up, argument passing and thread-pool start.
constexpr int64_t kCallOverheadTaps = 4096;

// True when `call` (a windowed call, not itself a segment)
// costs far fewer taps in segments.
bool segments_pay_off(const KernelCall& call);

// Whether `call` evaluates at least min_taps_for_segments() taps, below
// which segments are not considered. A call cut into pieces asks it for the
// whole call: its pieces may each cost less, and together far more.
bool costs_enough_for_segments(const KernelCall& call);

// Runs `call` in segments; for calls where segments_pay_off() holds.
Status launch_in_segments(const KernelCall& call);

#ifdef ONNXPOOL_TEST_HOOKS
// How many calls have run in segments since the program started.
int64_t calls_run_in_segments();

// Tests: consider segments for calls of at least `taps` taps, so that small
// tensors take them, and with `even_when_dearer` take them wherever a plan
// exists, so that every small case exercises them; a negative `taps`
// restores kMinTapsForSegments and the cost comparison.
void set_segments_for_testing(int64_t taps, bool even_when_dearer);
#endif

}  // namespace onnxpool::detail
