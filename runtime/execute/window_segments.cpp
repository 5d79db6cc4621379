#include "execute/window_segments.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "api/call_guard.h"
#include "execute/element_boxes.h"
#include "execute/element_values.h"
#include "execute/gpu_buffers.h"
#include "platform/halide_glue.h"
#include "dispatch/kernel_registry.h"
#include "onnxpool/pooling.h"

namespace onnxpool::detail {
namespace {

using Wide = __int128;
constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();
// Beyond this many kernel calls a plan is not worth making.
constexpr int64_t kMostCalls = int64_t{1} << 16;

#ifdef ONNXPOOL_TEST_HOOKS
std::atomic<int64_t> min_taps{kMinTapsForSegments};
std::atomic<bool> whenever_planned{false};
std::atomic<int64_t> segmented_calls{0};
#endif

// floor(a / b) and ceil(a / b) for b > 0 and any a.
Wide floor_div(Wide a, Wide b) { return a / b - (a % b != 0 && a < 0); }
Wide ceil_div(Wide a, Wide b) { return a / b + (a % b != 0 && a > 0); }

Wide saturated(Wide v) { return std::min<Wide>(v, std::numeric_limits<int64_t>::max()); }

// The first input position of output o's window on axis a.
Wide window_start(const AxisWindow& a, Wide o) { return o * a.stride - a.pad_begin; }

// How many taps of output o's window on axis a lie in [lo, hi).
Wide taps_within(const AxisWindow& a, int64_t o, Wide lo, Wide hi) {
  const Wide start = window_start(a, o);
  const Wide first = std::max<Wide>(0, ceil_div(lo - start, a.dilation));
  const Wide last = std::min<Wide>(Wide{a.kernel} - 1, floor_div(hi - 1 - start, a.dilation));
  return std::max<Wide>(0, last - first + 1);
}

// A run of outputs along one axis and how its kernel call sees that axis.
struct AxisPiece {
  enum class Kind {
    kWindows,  // a kernel call over `window`, one output per output of the run
    kEmpty,    // no window holds a tap inside X
    kPeriod,   // windows covering X: one kernel output per phase, `phase` maps to it
  } kind = Kind::kWindows;
  int64_t first_output = 0, outputs = 0;
  int64_t first_input = 0;  // where the call's input starts along the axis
  AxisWindow window;
  std::vector<int64_t> phase;  // kPeriod: the kernel output of each output of the run
};

// The axis of a call whose every window lies in the padding: one tap each,
// left of a one-element input, which the kernels read as padding.
AxisWindow empty_window(int64_t outputs) { return AxisWindow{1, outputs, 1, 1, 1, outputs, 0}; }

// A call over a run of windows wholly in the padding buffers a row of
// its outputs (empty_window): this many outputs keep that row under 2^31
// bytes at 8 bytes an entry.
constexpr int64_t kMostEmptyOutputs = int64_t{1} << 27;

// Appends outputs [o0, o1), whose windows hold no tap inside X, as runs of
// at most kMostEmptyOutputs. False past kMostCalls runs.
bool add_empty_run(int64_t o0, int64_t o1, std::vector<AxisPiece>* pieces) {
  if (o1 <= o0) return true;
  if ((o1 - o0 - 1) / kMostEmptyOutputs >= kMostCalls) return false;
  for (int64_t o = o0; o < o1; o += std::min(kMostEmptyOutputs, o1 - o)) {
    AxisPiece piece;
    piece.kind = AxisPiece::Kind::kEmpty;
    piece.first_output = o;
    piece.outputs = std::min(kMostEmptyOutputs, o1 - o);
    pieces->push_back(piece);
  }
  return true;
}

// Appends the piece for outputs [o0, o1) of axis a: the taps no window of
// the run reaches X with are dropped, and the input is cut to the positions
// the rest reach. False when the piece passes what the kernels take.
bool add_window_piece(const AxisWindow& a, int64_t o0, int64_t o1, std::vector<AxisPiece>* pieces) {
  if (o1 <= o0) return true;
  AxisPiece piece;
  piece.first_output = o0;
  piece.outputs = o1 - o0;
  const Wide first_start = window_start(a, o0), last_start = window_start(a, o1 - 1);
  // Taps below `lo` lie left of X in every window of the run (the last one
  // starts rightmost), taps above `hi` right of it (the first starts leftmost).
  const Wide lo = std::max<Wide>(0, ceil_div(-last_start, a.dilation));
  const Wide hi = std::min<Wide>(Wide{a.kernel} - 1, floor_div(Wide{a.input} - 1 - first_start, a.dilation));
  if (lo > hi) return add_empty_run(o0, o1, pieces);
  const Wide start = first_start + lo * a.dilation;  // the first kept tap of the first window
  const Wide end = last_start + hi * a.dilation;     // the last kept tap of the last window
  const Wide x0 = std::max<Wide>(0, start), x1 = std::min<Wide>(a.input, end + 1);
  AxisWindow& w = piece.window;
  const Wide kernel = hi - lo + 1;
  const Wide stride = piece.outputs > 1 ? a.stride : 1;
  const Wide dilation = kernel > 1 ? a.dilation : 1;
  const Wide pad_begin = x0 - start;
  const Wide span = end - start + 1;  // positions the run's windows cover, padding included
  if (kernel > kInt32Max || stride > kInt32Max || dilation > kInt32Max || span > kInt32Max ||
      piece.outputs > kInt32Max || (span > x1 - x0 && span * 8 > kInt32Max)) {
    return false;
  }
  w.input = static_cast<int64_t>(x1 - x0);
  w.output = piece.outputs;
  w.kernel = static_cast<int64_t>(kernel);
  w.stride = static_cast<int64_t>(stride);
  w.dilation = static_cast<int64_t>(dilation);
  w.pad_begin = static_cast<int64_t>(pad_begin);
  w.pad_end = static_cast<int64_t>(std::max<Wide>(0, end - (x1 - 1)));
  piece.first_input = static_cast<int64_t>(x0);
  pieces->push_back(piece);
  return true;
}

// Outputs [f0, f1) of axis a in runs of `chunk`. A run whose kept taps
// still span too much for one kernel goes window by window: one window
// covering X keeps only taps inside X.
bool add_chunks(const AxisWindow& a, int64_t f0, int64_t f1, int64_t chunk, std::vector<AxisPiece>* pieces) {
  if ((f1 - f0) / chunk > kMostCalls) return false;
  for (int64_t o = f0; o < f1; o += chunk) {
    const int64_t end = std::min(o + chunk, f1);
    if (add_window_piece(a, o, end, pieces)) continue;
    if (end - o == 1 || end - o > kMostCalls) return false;
    for (int64_t w = o; w < end; ++w) {
      if (!add_window_piece(a, w, w + 1, pieces) || pieces->size() > static_cast<size_t>(kMostCalls)) return false;
    }
  }
  return true;
}

// Outputs [f0, f1) of axis a, whose windows each start before X and end
// after it. Such a window's taps inside X are every position of X in its
// class modulo the dilation, and its start's class repeats every
// period = dilation / gcd(stride, dilation) outputs. With a run of at least
// one period, one window per class is computed, as a call of `period`
// outputs at stride gcd(stride, dilation) that start within one dilation
// left of X (at most X / dilation + 2 taps each), and each output of the run
// takes its class's. A shorter run is computed in chunks whose windows start
// at most max(X, dilation) apart, which bounds their taps alike.
bool add_covering_run(const AxisWindow& a, int64_t f0, int64_t f1, std::vector<AxisPiece>* pieces) {
  if (f1 <= f0) return true;
  const int64_t length = f1 - f0;
  const int64_t g = std::gcd(a.stride, a.dilation);
  const int64_t period = a.dilation / g;
  if (period > length) {
    const Wide reach = std::max(a.input, a.dilation);
    const int64_t chunk = static_cast<int64_t>(std::min<Wide>(length, reach / a.stride + 1));
    return add_chunks(a, f0, f1, chunk, pieces);
  }
  // Class k's window starts at first + k * g; every start in the run is
  // congruent to -pad_begin modulo g, and so is `first`.
  const int64_t residue = static_cast<int64_t>(((Wide{a.pad_begin} % g) + g) % g);
  const Wide first = -(Wide{period - 1} * g + residue);  // in (-dilation, 0]
  const Wide kernel = floor_div(Wide{a.input} - 1 - first, a.dilation) + 1;
  AxisPiece piece;
  piece.kind = AxisPiece::Kind::kPeriod;
  piece.first_output = f0;
  piece.outputs = length;
  piece.window = AxisWindow{a.input,
                            period,
                            static_cast<int64_t>(kernel),
                            period > 1 ? g : 1,
                            kernel > 1 ? a.dilation : 1,
                            static_cast<int64_t>(-first),
                            0};
  if (kernel > kInt32Max || length > kInt32Max || -first + Wide{a.input} > kInt32Max) return false;
  // The phases' windows start up to a dilation before X, and a kernel
  // buffers every position from there: past 2^31 bytes, window by window.
  if (row_buffer_too_large(piece.window)) return add_chunks(a, f0, f1, 1, pieces);
  piece.phase.resize(static_cast<size_t>(length));
  for (int64_t o = f0; o < f1; ++o) {
    const Wide offset = window_start(a, o) - first;
    piece.phase[static_cast<size_t>(o - f0)] = static_cast<int64_t>(((offset % a.dilation) + a.dilation) % a.dilation / g);
  }
  pieces->push_back(std::move(piece));
  return true;
}

// Cuts axis a's outputs by where their windows lie relative to X.
bool plan_axis(const AxisWindow& a, std::vector<AxisPiece>* pieces) {
  const Wide reach = Wide{a.kernel - 1} * a.dilation;  // from a window's first tap to its last
  // The first output whose window starts at or after `position`.
  auto first_starting_at = [&](Wide position) {
    return static_cast<int64_t>(std::clamp<Wide>(ceil_div(position + a.pad_begin, a.stride), 0, a.output));
  };
  const int64_t reaching = first_starting_at(-reach);       // ends inside X or later
  const int64_t inside = first_starting_at(0);              // starts inside X or later
  const int64_t past = first_starting_at(a.input - reach);  // ends past X
  const int64_t beyond = first_starting_at(a.input);        // starts past X
  const int64_t middle_begin = std::min(inside, past), middle_end = std::max(inside, past);
  const bool covering = past < inside;  // windows between start before X and end after it
  return add_empty_run(0, reaching, pieces) && add_window_piece(a, reaching, middle_begin, pieces) &&
         (covering ? add_covering_run(a, middle_begin, middle_end, pieces)
                   : add_window_piece(a, middle_begin, middle_end, pieces)) &&
         add_window_piece(a, middle_end, beyond, pieces) && add_empty_run(beyond, a.output, pieces);
}

struct SegmentPlan {
  std::vector<std::vector<AxisPiece>> axes;
  Wide cost = 0;  // taps, calls and copies, in taps
};

// Visits every combination of one piece per axis, as the pieces' indices.
template <typename F>
void for_each_call(const SegmentPlan& plan, F f) {
  const size_t rank = plan.axes.size();
  std::vector<size_t> at(rank, 0);
  while (true) {
    f(at);
    size_t i = rank;
    while (i > 0 && ++at[i - 1] == plan.axes[i - 1].size()) at[--i] = 0;
    if (i == 0) return;
  }
}

bool any_of_kind(const SegmentPlan& plan, const std::vector<size_t>& at, AxisPiece::Kind kind) {
  for (size_t i = 0; i < at.size(); ++i) {
    if (plan.axes[i][at[i]].kind == kind) return true;
  }
  return false;
}

// The axis a combination's call runs along axis i: a run of windows wholly
// in the padding makes every axis of its calls such a run.
AxisWindow call_axis(const AxisPiece& piece, bool empty) {
  return empty ? empty_window(piece.outputs) : piece.window;
}

bool make_plan(const KernelCall& call, SegmentPlan* plan) {
  const WindowGeometry& g = *call.geometry;
  plan->axes.resize(g.axes.size());
  Wide calls = 1;
  for (size_t i = 0; i < g.axes.size(); ++i) {
    if (!plan_axis(g.axes[i], &plan->axes[i])) return false;
    calls *= plan->axes[i].size();
    if (calls > kMostCalls) return false;
  }
  Wide cost = 0;
  bool every_call_fits = true;
  for_each_call(*plan, [&](const std::vector<size_t>& at) {
    const bool empty = any_of_kind(*plan, at, AxisPiece::Kind::kEmpty);
    const bool scattered = !empty && any_of_kind(*plan, at, AxisPiece::Kind::kPeriod);
    // Counted as direct_cost counts one call: taps and row buffer entries.
    Wide taps = g.planes(), outputs = g.planes(), row_entries = g.planes();
    for (size_t i = 0; i < at.size(); ++i) {
      const AxisWindow w = call_axis(plan->axes[i][at[i]], empty);
      taps = saturated(taps * w.output * w.kernel);
      outputs = saturated(outputs * plan->axes[i][at[i]].outputs);
      row_entries = saturated(row_entries * (i + 1 < at.size() ? Wide{w.output} : row_buffer_positions(w)));
      // A call the kernel would refuse fails the plan before any segment runs, not half-way.
      if (i + 1 == at.size() && row_buffer_too_large(w)) every_call_fits = false;
    }
    cost = saturated(cost + taps + row_entries + kCallOverheadTaps + (scattered ? outputs : 0));
  });
  if (!every_call_fits) return false;
  // Rescaling AveragePool's divisors touches every output once more.
  if (call.count_include_pad) cost = saturated(cost + Wide{g.planes()} * g.output_plane_size());
  plan->cost = cost;
  return true;
}

// One kernel call's cost: its taps and its row buffers' entries.
Wide direct_cost(const WindowGeometry& g) {
  Wide taps = Wide{g.planes()} * g.output_plane_size();
  for (const AxisWindow& a : g.axes) taps = saturated(taps * a.kernel);
  return saturated(taps + row_buffer_entries(g));
}

// MaxPool's Indices of one call: from positions within the call's input
// (plane p at p times its plane size) to positions within X.
struct IndexRebase {
  std::vector<int64_t> crop_extents, crop_origin, input_extents;
  bool column_major = false;

  int64_t operator()(int64_t local) const {
    if (local < 0) return local;  // a window without an input tap
    const size_t rank = crop_extents.size();
    int64_t crop_plane = 1, plane = 1;
    for (size_t i = 0; i < rank; ++i) {
      crop_plane *= crop_extents[i];
      plane *= input_extents[i];
    }
    // Row-major: the last axis fastest; column-major: the first.
    int64_t rest = local % crop_plane, position = 0, scale = 1;
    for (size_t k = 0; k < rank; ++k) {
      const size_t i = column_major ? k : rank - 1 - k;
      position += (rest % crop_extents[i] + crop_origin[i]) * scale;
      rest /= crop_extents[i];
      scale *= input_extents[i];
    }
    return (local / crop_plane) * plane + position;
  }
};

// AveragePool with padding in the divisor: the segments divided each sum by
// its taps inside X; scale by (taps inside X) / (taps counted), per axis.
void rescale_divisors(const KernelCall& call, const WindowGeometry& g, const TensorView& Y) {
  const size_t rank = g.axes.size();
  std::vector<std::vector<double>> ratio(rank);
  std::vector<std::vector<char>> none_inside(rank), none_counted(rank);
  std::vector<int64_t> extents;
  for (size_t i = 0; i < rank; ++i) {
    const AxisWindow& a = g.axes[i];
    extents.push_back(a.output);
    for (int64_t o = 0; o < a.output; ++o) {
      const Wide inside = taps_within(a, o, 0, a.input);
      const Wide counted = taps_within(a, o, call.count_begin[i], call.count_end[i]);
      ratio[i].push_back(counted > 0 ? static_cast<double>(inside) / static_cast<double>(counted) : 0.0);
      none_inside[i].push_back(inside == 0);
      none_counted[i].push_back(counted == 0);
    }
  }
  const std::vector<int64_t> strides = dense_strides(extents);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for_each_in_box(g.planes(), extents, [&](int64_t plane, const std::vector<int64_t>& at) {
    double scale = 1.0;
    bool empty = false, uncounted = false;
    for (size_t i = 0; i < rank; ++i) {
      scale *= ratio[i][at[i]];
      empty = empty || none_inside[i][at[i]];
      uncounted = uncounted || none_counted[i][at[i]];
    }
    const int64_t offset = offset_of(plane, at, strides);
    // A window of padding alone averages zeros, unless it counts nothing.
    const double value = uncounted ? nan : empty ? 0.0 : load_element(Y.data, Y.type, offset) * scale;
    store_element(Y.data, Y.type, offset, value);
  });
}

// Runs one combination of pieces: a kernel call whose outputs go straight
// into Y's box, or, where an axis computes one window per phase, into a
// scratch box that each output of Y's box then takes its phase's value from.
class CombinationRunner {
 public:
  CombinationRunner(const KernelCall& call, const KernelCall& base, bool column_major)
      : call_(call), base_(base), column_major_(column_major) {
    const WindowGeometry& g = *call.geometry;
    for (const AxisWindow& a : g.axes) {
      in_extents_.push_back(a.input);
      out_extents_.push_back(a.output);
    }
    in_strides_ = dense_strides(in_extents_);
    out_strides_ = dense_strides(out_extents_);
  }

  Status run(const SegmentPlan& plan, const std::vector<size_t>& at) {
    const WindowGeometry& g = *call_.geometry;
    const size_t rank = g.axes.size();
    const bool empty = any_of_kind(plan, at, AxisPiece::Kind::kEmpty);
    const bool scattered = !empty && any_of_kind(plan, at, AxisPiece::Kind::kPeriod);
    WindowGeometry sub;
    sub.batch = g.batch;
    sub.channels = g.channels;
    sub.output_shape = {g.batch, g.channels};
    std::vector<int64_t> crop_shape = {g.batch, g.channels}, box, call_box;
    IndexRebase rebase;
    rebase.input_extents = in_extents_;
    rebase.column_major = column_major_;
    int64_t in_offset = 0, out_offset = 0;
    for (size_t i = 0; i < rank; ++i) {
      const AxisPiece& p = plan.axes[i][at[i]];
      sub.axes.push_back(call_axis(p, empty));
      const int64_t first_input = empty ? 0 : p.first_input;
      in_offset += first_input * in_strides_[i];
      out_offset += p.first_output * out_strides_[i];
      crop_shape.push_back(sub.axes[i].input);
      sub.output_shape.push_back(sub.axes[i].output);
      rebase.crop_extents.push_back(sub.axes[i].input);
      rebase.crop_origin.push_back(first_input);
      box.push_back(p.outputs);
      call_box.push_back(sub.axes[i].output);
    }
    const TensorView input(byte_at(*call_.input, in_offset), call_.input->type, crop_shape, Device::kHost);
    KernelCall segment = base_;
    segment.geometry = &sub;
    segment.input = &input;
    for (size_t i = 0; i < rank && !segment.count_begin.empty(); ++i) {
      segment.count_begin[i] = 0;
      segment.count_end[i] = sub.axes[i].input;
    }
    // The call's outputs: boxes of Y (and Indices), or dense scratch.
    std::vector<TensorView> outputs;
    outputs.reserve(call_.outputs.size());  // segment.outputs points into it
    std::vector<std::vector<uint8_t>> scratch(call_.outputs.size());
    for (size_t k = 0; k < call_.outputs.size(); ++k) {
      const TensorView& out = *call_.outputs[k];
      if (scattered) {
        int64_t count = g.planes();
        for (int64_t e : call_box) count *= e;
        scratch[k].resize(static_cast<size_t>(count) * element_size(out.type));
        outputs.emplace_back(scratch[k].data(), out.type, sub.output_shape.to_vector(), Device::kHost);
      } else {
        outputs.emplace_back(byte_at(out, out_offset), out.type, sub.output_shape.to_vector(), Device::kHost);
      }
      segment.outputs[k] = &outputs[k];
    }
    if (scattered) segment.output_strides.clear();  // the scratch box is dense
    Status s = launch_kernel(segment);
    if (!s) return s;
    const bool indices = call_.outputs.size() > 1;
    if (!scattered) {
      if (indices) {
        int64_t* idx = static_cast<int64_t*>(outputs[1].data);
        for_each_in_box(g.planes(), box, [&](int64_t plane, const std::vector<int64_t>& c) {
          int64_t& v = idx[offset_of(plane, c, out_strides_)];
          v = rebase(v);
        });
      }
      return Status::ok();
    }
    // Each output of Y's box takes the call's output of its phase.
    const std::vector<int64_t> call_strides = dense_strides(call_box);
    std::vector<int64_t> from(rank);
    for_each_in_box(g.planes(), box, [&](int64_t plane, const std::vector<int64_t>& c) {
      for (size_t i = 0; i < rank; ++i) {
        const AxisPiece& p = plan.axes[i][at[i]];
        from[i] = p.kind == AxisPiece::Kind::kPeriod ? p.phase[static_cast<size_t>(c[i])] : c[i];
      }
      const int64_t src = offset_of(plane, from, call_strides), dst = out_offset + offset_of(plane, c, out_strides_);
      const size_t bytes = element_size(call_.outputs[0]->type);
      std::memcpy(static_cast<uint8_t*>(call_.outputs[0]->data) + dst * bytes, scratch[0].data() + src * bytes, bytes);
      if (indices) {
        int64_t v;
        std::memcpy(&v, scratch[1].data() + src * sizeof(int64_t), sizeof v);
        static_cast<int64_t*>(call_.outputs[1]->data)[dst] = rebase(v);
      }
    });
    return Status::ok();
  }

 private:
  static void* byte_at(const TensorView& t, int64_t element) {
    return static_cast<uint8_t*>(t.data) + element * static_cast<int64_t>(element_size(t.type));
  }

  const KernelCall& call_;
  const KernelCall& base_;
  const bool column_major_;
  std::vector<int64_t> in_extents_, out_extents_, in_strides_, out_strides_;
};

}  // namespace

namespace {
// The one threshold: below min_taps_for_segments() taps, segments are not weighed.
#ifdef ONNXPOOL_TEST_HOOKS
bool reaches_min_taps(Wide direct) { return direct >= min_taps.load(std::memory_order_relaxed); }
bool take_segments_whenever_planned() { return whenever_planned.load(std::memory_order_relaxed); }
#else
bool reaches_min_taps(Wide direct) { return direct >= kMinTapsForSegments; }
bool take_segments_whenever_planned() { return false; }
#endif
}  // namespace

bool costs_enough_for_segments(const KernelCall& call) {
  return call.kernel->spatial_rank != 0 && reaches_min_taps(direct_cost(*call.geometry));
}

bool segments_pay_off(const KernelCall& call) {
  const WindowGeometry& g = *call.geometry;
  if (call.kernel->spatial_rank == 0) return false;
  for (const TensorView* out : call.outputs) {
    if (out->device != call.input->device) return false;
  }
  // A row buffer the kernel may not allocate leaves segments as the only way.
  const bool must = row_buffer_too_large(g.axes.back());
  const Wide direct = direct_cost(g);
  if (!must && !call.piece_of_costly_call && !reaches_min_taps(direct)) return false;
  SegmentPlan plan;
  return make_plan(call, &plan) &&
         (must || direct > 2 * plan.cost || take_segments_whenever_planned());
}

// A call on CUDA device tensors: the segments' boxes and the host loops
// after them (phase copies, Indices rebased, divisors rescaled) need host
// memory, so X is copied to the host, the segments run there, and Y (and
// Indices) are copied back. The copies cost X's and Y's sizes: still bounded
// by the tensors, not by kernel_shape and pads.
static Status launch_in_segments_through_host(const KernelCall& call) {
  const auto bytes_of = [](const TensorView& t) {
    int64_t n = static_cast<int64_t>(element_size(t.type));
    for (int64_t e : t.shape) n *= e;
    return n;
  };
  CallContext context;
  const auto failure = [&] {
    return Status::unsupported(std::string(op_name(call.kernel->op)) + ": the CUDA backend failed: " +
                               (context.error.empty() ? std::string("no error text from Halide") : context.error));
  };
  note_host_allocation();  // the host copies
  std::vector<uint8_t> x_copy(static_cast<size_t>(bytes_of(*call.input)));
  if (copy_cuda_to_host(&context, call.input->data, x_copy.data(), bytes_of(*call.input)) != 0) return failure();
  const TensorView input(x_copy.data(), call.input->type, call.input->shape, Device::kHost);
  KernelCall host = call;
  host.input = &input;
  std::vector<std::vector<uint8_t>> y_copies(call.outputs.size());
  std::vector<TensorView> outputs;
  outputs.reserve(call.outputs.size());  // host.outputs points into it
  for (size_t k = 0; k < call.outputs.size(); ++k) {
    const TensorView& out = *call.outputs[k];
    y_copies[k].resize(static_cast<size_t>(bytes_of(out)));
    outputs.emplace_back(y_copies[k].data(), out.type, out.shape, Device::kHost);
    host.outputs[k] = &outputs.back();
  }
  const Status s = launch_in_segments(host);
  if (!s) return s;
  for (size_t k = 0; k < call.outputs.size(); ++k) {
    if (copy_host_to_cuda(&context, y_copies[k].data(), call.outputs[k]->data, bytes_of(*call.outputs[k])) != 0) {
      return failure();
    }
  }
  return Status::ok();
}

Status launch_in_segments(const KernelCall& call) {
  if (call.input->device == Device::kCuda) return launch_in_segments_through_host(call);
  const WindowGeometry& g = *call.geometry;
  SegmentPlan plan;
  if (!make_plan(call, &plan)) return Status::internal(std::string(op_name(call.kernel->op)) + ": no segment plan");
#ifdef ONNXPOOL_TEST_HOOKS
  segmented_calls.fetch_add(1, std::memory_order_relaxed);
#endif
  // The planner gives segments the general kernels only: a segment's box is
  // neither a whole plane nor free of padding.
  if (call.kernel->variant == KernelVariant::kFlatPlane || call.kernel->variant == KernelVariant::kHalving) {
    return Status::internal(std::string(op_name(call.kernel->op)) + ": a special kernel planned for segments");
  }
  KernelCall base = call;
  base.count_include_pad = false;  // segments divide by the taps inside X (rescale_divisors)
  for (ScalarArg& s : base.scalars) {
    if (s.named("clamp_safe")) s.flag = false;  // a segment's windows may hold no input tap
  }
  std::vector<int64_t> in_extents, out_extents;
  for (const AxisWindow& a : g.axes) {
    in_extents.push_back(a.input);
    out_extents.push_back(a.output);
  }
  base.input_strides = AxisStrides(dense_strides(in_extents));
  base.output_strides = AxisStrides(dense_strides(out_extents));
  CombinationRunner runner(call, base, call.column_major_indices());
  Status status = Status::ok();
  for_each_call(plan, [&](const std::vector<size_t>& at) {
    if (status) status = runner.run(plan, at);
  });
  if (!status) return status;
  if (call.count_include_pad && !call.count_begin.empty()) rescale_divisors(call, g, *call.outputs[0]);
  return Status::ok();
}

#ifdef ONNXPOOL_TEST_HOOKS
int64_t calls_run_in_segments() { return segmented_calls.load(std::memory_order_relaxed); }

void set_segments_for_testing(int64_t taps, bool even_when_dearer) {
  min_taps.store(taps < 0 ? kMinTapsForSegments : taps, std::memory_order_relaxed);
  whenever_planned.store(taps >= 0 && even_when_dearer, std::memory_order_relaxed);
}
#endif

}  // namespace onnxpool::detail
