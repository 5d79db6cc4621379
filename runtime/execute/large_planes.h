// Calls that Halide's 32-bit buffer addressing cannot take in one piece.
//
// The kernels are compiled without Halide's `large_buffers` feature: every
// buffer they get, and every one they allocate, stays under 2^31 bytes, and
// every position they compute fits int32. A call whose planes pass that (a
// 4 GiB medical volume is one plane) runs here in pieces, on the host:
//   - windowed pools: each plane is cut along ONNX's first spatial axis into
//     runs of output rows, each run with the input rows its windows read (the
//     halo included), so every piece is a plain call of the same kernel. The
//     rows whose windows hold no input tap at all (pads past the kernel) are
//     written without a kernel (empty_input.h), as the kernels need a real
//     row to run on. MaxPool's Indices are turned from piece positions into
//     the plane's.
//   - global pools: each plane is reduced as sub-planes of at most
//     kSubPlaneElements, whose partial results are combined: max of maxes
//     (by the same kernel, so NaN and signed zeros come out as they do
//     anywhere), means weighted by their element counts and Lp norms by
//     m * (sum (y / m)^p)^(1/p) in double. float16 and bfloat16 means and
//     norms are reduced by the float32 kernels on widened sub-planes, so
//     every partial is in the accumulator type (float32), not rounded to
//     16 bits.
// Why not `large_buffers`: 64-bit addressing in every kernel, or a second
// copy of every kernel for the rare calls that need it, where the pieces
// cost nothing on ordinary calls, reuse the kernels as they are, and are
// needed anyway for extents past 2^31 elements (Halide's extents and
// strides are int32 even with `large_buffers`). docs/reliability.md.
#pragma once

#include <cstdint>
#include <vector>

#include "execute/kernel_launch.h"
#include "onnxpool/status.h"

namespace onnxpool::detail {

// The largest buffer a kernel is handed or allocates: 2^31 - 1 bytes.
int64_t max_kernel_buffer_bytes();

#ifdef ONNXPOOL_TEST_HOOKS
// Tests: pretend the kernels take buffers of at most `bytes` (> 0), so
// small tensors run in pieces; 0 restores the real limit.
void set_max_kernel_buffer_bytes_for_testing(int64_t bytes);

// How many calls have run in pieces since the program started (tests check
// that a test meant to reach this path does).
int64_t calls_run_in_pieces();

// Tests: the first output row of every piece of the last windowed call
// that ran in pieces (to check each output next to a cut).
std::vector<int64_t> last_piece_starts();
#endif

// Global pools reduce planes that need pieces as sub-planes of this many
// elements (fewer when the buffer limit is lower): long enough for the
// kernels' vector loops, short enough that a float32 sum of one stays exact
// to a few ulps.
constexpr int64_t kSubPlaneElements = 65536;

// Global pools reduce a host plane of more elements than this as
// sub-planes too, buffer limit or not. One float32 sum per kernel lane over the whole
// plane stops growing once a lane's sum passes 2^24 times its terms:
// GlobalAveragePool of 2^29 - 2^16 float32 ones (2 GiB, one kernel call)
// gave 0.50006 instead of 1. And a single plane is one parallel task, where
// its sub-planes are many: 15.7 -> 28 GB/s at 2 threads (docs/large-tensors.md).
constexpr int64_t kLargestWholeGlobalPlane = int64_t{1} << 24;

// A run of output rows along ONNX's first spatial axis and the input rows
// its windows read.
struct RowPiece {
  int64_t first_output = 0, outputs = 0;
  int64_t first_input = 0, inputs = 0;
};

// How a windowed call's planes are cut: rows [0, leading_tapless) and
// [trailing_tapless, output) have windows without an input tap along the
// first axis; the pieces cover the rows in between.
struct RowPlan {
  int64_t leading_tapless = 0, trailing_tapless = 0;
  std::vector<RowPiece> pieces;
};

// True when `call` (a windowed or global kernel call) must run in pieces.
bool needs_pieces(const KernelCall& call);

// The pieces of a windowed call, or kUnsupported when one window along the
// first axis needs more than a kernel buffer (its message says which).
Status plan_row_pieces(const KernelCall& call, RowPlan* plan);

// Runs a call for which needs_pieces() holds.
Status launch_in_pieces(const KernelCall& call);

// The row-buffer grain limit: output rows (1D: planes) per task such that
// one task's row buffer (every position the windows along `x`, the last
// spatial axis, cover, at most 8 bytes each) stays under a kernel buffer.
int64_t max_rows_per_task(const AxisWindow& x);

// A geometry of `planes` planes of `plane_size` elements, one output each:
// what a global kernel (or the range check) runs over.
WindowGeometry flat_planes(int64_t planes, int64_t plane_size);

}  // namespace onnxpool::detail
