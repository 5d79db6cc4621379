// AveragePool entry point: validate, work out the divisor's counting range
// per axis, run the kernel.
#include "call_guard.h"
#include "empty_input.h"
#include <limits>

#include "flat_plane.h"
#include "halving.h"
#include "kernel_launch.h"
#include "operator_setup.h"
#include "onnxpool/pooling.h"

namespace onnxpool {

namespace {

Status run_average_pool(const PoolAttributes& attributes, const TensorView& X, const TensorView& Y) {
  constexpr PoolOp op = PoolOp::kAveragePool;
  detail::WindowGeometry geometry;
  detail::KernelCall call;
  Status s = detail::prepare_kernel_call(op, attributes, X, Y, detail::KernelVariant::kPlain, &geometry, &call);
  if (!s) return s;
  if (detail::windows_without_input(geometry)) {
    return detail::fill_windows_without_input(op, attributes, geometry, Y, nullptr);
  }
  // count_include_pad = 1 counts the taps inside [-pad_begin, in + pad_end):
  // a ceil_mode window running past the end pad does not count the taps
  // beyond it (ONNX opset 19+ reference, onnxruntime). = 0 counts real taps.
  for (const detail::AxisWindow& a : geometry.axes) {
    int64_t end = a.input;
    if (attributes.count_include_pad && __builtin_add_overflow(a.input, a.pad_end, &end)) {
      end = std::numeric_limits<int64_t>::max();  // past every tap either way
    }
    call.count_begin.push_back(attributes.count_include_pad ? -a.pad_begin : 0);
    call.count_end.push_back(end);
  }
  call.count_include_pad = attributes.count_include_pad;
  detail::prefer_flat_plane_kernel(&call);
  detail::prefer_halving_kernel(&call);
  return detail::launch_kernel(call);
}

}  // namespace

Status average_pool(const PoolAttributes& attributes, const TensorView& X, const TensorView& Y) {
  return detail::guarded_call("AveragePool", [&] { return run_average_pool(attributes, X, Y); });
}

}  // namespace onnxpool
