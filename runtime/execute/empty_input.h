// Windows over an input without elements: an empty spatial axis whose pads
// give it outputs (valid ONNX: in 0, pads 1/1, kernel 2 makes one window).
// Every tap is padding, and the kernels need an input element to run at all,
// so these calls fill Y (and Indices) here with what each operator makes of
// a window without taps: MaxPool the type's lowest value and index -1 (as
// for any window without a tap inside X); LpPool 0 (the norm of nothing);
// AveragePool NaN (the mean of nothing) with count_include_pad = 0, and with
// count_include_pad = 1 0 (zeros over the counted padding; ONNX's output
// size rules leave no window that counts none, but one would get NaN).
#pragma once

#include "onnxpool/attributes.h"
#include "onnxpool/status.h"
#include "onnxpool/tensor.h"
#include "plan/window_geometry.h"

namespace onnxpool::detail {

// True when the call has outputs but X has no element.
bool windows_without_input(const WindowGeometry& geometry);

// Fills the outputs of such a call (host tensors only; device ones are
// kUnsupported). count_include_pad: AveragePool's attribute (false for the
// other operators).
Status fill_windows_without_input(PoolOp op, bool count_include_pad, const WindowGeometry& geometry,
                                  const TensorView& Y, const TensorView* Indices);

// The same values for windows known to hold no input tap, written densely
// into `y` (and `indices`, when given) for `planes` planes of
// geometry.axes' outputs. Output row r along the first spatial axis is the
// window of row first_row + r of that axis (large_planes.cpp fills runs of
// rows inside a plane); the axes are otherwise the call's own.
void fill_tapless_windows(PoolOp op, bool count_include_pad, const WindowGeometry& geometry, int64_t first_row,
                          int64_t planes, void* y, ElementType y_type, int64_t* indices);

}  // namespace onnxpool::detail
