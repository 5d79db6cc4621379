#include "execute/large_planes.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "api/call_guard.h"
#include "execute/element_values.h"
#include "execute/empty_input.h"
#include "execute/half_widening.h"
#include "plan/halving.h"
#include "dispatch/kernel_registry.h"
#include "onnxpool/pooling.h"
#include "platform/thread_pool.h"
#include "execute/window_segments.h"

namespace onnxpool::detail {
namespace {

using Wide = __int128;
constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();

#ifdef ONNXPOOL_TEST_HOOKS
std::atomic<int64_t> test_limit{0};
std::atomic<int64_t> pieces_run{0};
std::mutex last_starts_mutex;
std::vector<int64_t> last_starts;
#endif

int64_t output_element_bytes(const KernelCall& call) {
  int64_t bytes = 1;
  for (const TensorView* out : call.outputs) bytes = std::max<int64_t>(bytes, element_size(out->type));
  return bytes;
}

// Elements of one slice along the first spatial axis (every other axis).
int64_t slice_size(const WindowGeometry& g, bool outputs) {
  int64_t n = 1;
  for (size_t i = 1; i < g.axes.size(); ++i) n *= outputs ? g.axes[i].output : g.axes[i].input;
  return n;
}

// Positions (padding included) that the windows of n consecutive outputs
// cover along an axis, from the first one's first tap to the last one's last.
Wide positions_covered(const AxisWindow& a, Wide n) {
  return (n - 1) * a.stride + Wide{a.kernel - 1} * a.dilation + 1;
}

// A 1D kernel's row buffer is the whole axis (row_buffer_positions). Only
// when it holds padding: otherwise the buffer does not outgrow the input.
bool one_axis_row_buffer_too_large(const WindowGeometry& g, int64_t limit) {
  if (g.axes.size() != 1) return false;
  const AxisWindow& a = g.axes[0];
  const Wide positions = row_buffer_positions(a);
  return positions > a.input && positions * 8 > limit;
}

// f(begin, end) over [0, n) in chunks, on the kernels' thread pool: the
// runtime's own passes over a piece (widening, renumbering Indices) are as
// large as the kernel's and would otherwise run on one core.
template <typename F>
void for_chunks_in_parallel(int64_t n, F f) {
  // At least 2^20 elements a chunk, and few enough chunks for an int.
  const int64_t chunk = std::max<int64_t>(int64_t{1} << 20, n / (int64_t{1} << 30) + 1);
  struct Closure {
    F* f;
    int64_t n, chunk;
  } closure{&f, n, chunk};
  auto task = [](void*, int i, uint8_t* c) {
    const Closure& job = *reinterpret_cast<Closure*>(c);
    const int64_t begin = int64_t{i} * job.chunk;
    (*job.f)(begin, std::min(job.n, begin + job.chunk));
    return 0;
  };
  parallel_for(nullptr, task, 0, static_cast<int>((n + chunk - 1) / chunk), reinterpret_cast<uint8_t*>(&closure));
}

std::string op_prefix(const KernelCall& call) { return std::string(op_name(call.kernel->op)) + ": "; }

void* element_at(const TensorView& t, int64_t element) {
  return static_cast<uint8_t*>(t.data) + element * static_cast<int64_t>(element_size(t.type));
}

// --- Windowed pools -------------------------------------------------------

// The input rows [first, first + count) that output rows [o0, o0 + n) read
// along axis `a`: clipped to the input, at least one row (a piece's kernel
// needs one even where its windows reach only padding).
void input_rows_for(const AxisWindow& a, int64_t o0, int64_t n, int64_t* first, int64_t* count) {
  const Wide start = Wide{o0} * a.stride - a.pad_begin;
  const Wide end = start + positions_covered(a, n);  // one past the last tap
  const Wide lo = std::clamp<Wide>(start, 0, a.input - 1);
  const Wide hi = std::clamp<Wide>(end, lo + 1, a.input);
  *first = static_cast<int64_t>(lo);
  *count = static_cast<int64_t>(hi - lo);
}

// Sets `p`, a copy of g with one plane (made once per call), to the geometry
// of one piece: axis 0 holds the piece's rows, its windows start where the
// plane's did, relative to the piece's first input row.
void set_piece_geometry(const WindowGeometry& g, const RowPiece& piece, WindowGeometry* p) {
  AxisWindow& a = p->axes[0];
  a = g.axes[0];
  const Wide start = Wide{piece.first_output} * a.stride - a.pad_begin;  // the first window's first tap
  a.input = piece.inputs;
  a.output = piece.outputs;
  a.pad_begin = static_cast<int64_t>(Wide{piece.first_input} - start);
  const Wide last_tap = start + positions_covered(g.axes[0], piece.outputs) - 1 - piece.first_input;
  a.pad_end = static_cast<int64_t>(std::max<Wide>(0, last_tap - (piece.inputs - 1)));
  p->output_shape[2] = piece.outputs;
}

// MaxPool's Indices from a piece's kernel: positions within the piece (its
// plane number 0) to positions within X. Row-major: the piece starts
// first_input slices into the plane. Column-major (storage_order = 1, the
// first spatial axis fastest): the first axis's coordinate moves by
// first_input, and the others' stride is the plane's extent, not the piece's.
void rebase_indices(int64_t* indices, int64_t count, int64_t plane_start, const RowPiece& piece, int64_t slice,
                    int64_t extent0, bool column_major) {
  for_chunks_in_parallel(count, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      const int64_t local = indices[i];
      if (local < 0) continue;  // a window without an input tap
      if (!column_major) {
        indices[i] = plane_start + piece.first_input * slice + local;
      } else {
        indices[i] = plane_start + (local % piece.inputs + piece.first_input) + extent0 * (local / piece.inputs);
      }
    }
  });
}

Status launch_windowed_in_pieces(const KernelCall& call) {
  const WindowGeometry& g = *call.geometry;
  RowPlan plan;
  Status s = plan_row_pieces(call, &plan);
  if (!s) return s;
#ifdef ONNXPOOL_TEST_HOOKS
  {
    std::vector<int64_t> starts;
    for (const RowPiece& piece : plan.pieces) starts.push_back(piece.first_output);
    const std::lock_guard<std::mutex> lock(last_starts_mutex);
    last_starts = std::move(starts);
  }
#endif
  KernelCall piece_call = call;
  // Pieces of a call whose windows reach far into the padding weigh
  // segments each, though each alone may cost too little to (window_segments.h).
  piece_call.piece_of_costly_call = costs_enough_for_segments(call);
  // Flat-plane kernels take the whole plane's shape, so the planner gives
  // pieces the others only. Halving pieces keep the 2x2 / stride-2 geometry.
  if (call.kernel->variant == KernelVariant::kFlatPlane) {
    return Status::internal(op_prefix(call) + "a flat-plane kernel planned for a split plane");
  }
  const int64_t in_plane = g.input_plane_size(), out_plane = g.output_plane_size();
  const int64_t in_slice = slice_size(g, false), out_slice = slice_size(g, true);
  const bool indices = call.outputs.size() > 1;
  const bool column_major = call.column_major_indices();
  const bool count_include_pad = call.count_include_pad;
  // What a piece's launch needs, made here, before anything writes Y, and
  // set for each piece in place: a piece allocates nothing, so memory the
  // system refuses is refused before the first piece wrote Y (a launch
  // allocates nothing either; kernel_launch.h).
  auto shape_of = [](const std::vector<int64_t>& rest) {
    std::vector<int64_t> shape = {1, 1, 0};
    shape.insert(shape.end(), rest.begin(), rest.end());
    return shape;
  };
  std::vector<int64_t> rest_in, rest_out;  // the shapes of the other spatial axes
  for (size_t i = 1; i < g.axes.size(); ++i) {
    rest_in.push_back(g.axes[i].input);
    rest_out.push_back(g.axes[i].output);
  }
  WindowGeometry geometry = g;
  geometry.batch = 1;
  geometry.channels = 1;
  geometry.output_shape = ShapeList(shape_of(rest_out));
  TensorView input(call.input->data, call.input->type, shape_of(rest_in), call.input->device);
  std::vector<TensorView> outputs;
  outputs.reserve(call.outputs.size());
  for (const TensorView* out : call.outputs) outputs.emplace_back(out->data, out->type, shape_of(rest_out), out->device);
  piece_call.geometry = &geometry;
  piece_call.input = &input;
  for (size_t i = 0; i < outputs.size(); ++i) piece_call.outputs[i] = &outputs[i];
  WindowGeometry tapless = g;  // rows whose windows hold no input tap
  auto fill_rows = [&](int64_t plane, int64_t first_row, int64_t rows) {
    if (rows <= 0) return;
    tapless.axes[0].output = rows;
    const int64_t at = plane * out_plane + first_row * out_slice;
    const TensorView& Y = *call.outputs[0];
    int64_t* idx = indices ? static_cast<int64_t*>(call.outputs[1]->data) + at : nullptr;
    fill_tapless_windows(call.kernel->op, count_include_pad, tapless, first_row, 1, element_at(Y, at), Y.type, idx);
  };
  for (int64_t plane = 0; plane < g.planes(); ++plane) {
    fill_rows(plane, 0, plan.leading_tapless);
    for (const RowPiece& piece : plan.pieces) {
      set_piece_geometry(g, piece, &geometry);
      input.data = element_at(*call.input, plane * in_plane + piece.first_input * in_slice);
      input.shape[2] = piece.inputs;
      for (size_t i = 0; i < outputs.size(); ++i) {
        outputs[i].data = element_at(*call.outputs[i], plane * out_plane + piece.first_output * out_slice);
        outputs[i].shape[2] = piece.outputs;
      }
      if (!call.count_begin.empty()) {
        // The divisor's counting range in the piece's coordinates, clamped
        // to the positions its windows cover (so it fits int32; clamping
        // there changes no count).
        const AxisWindow& a = geometry.axes[0];
        const int64_t lo = -a.pad_begin, hi = a.input + a.pad_end;
        piece_call.count_begin[0] = std::clamp<int64_t>(call.count_begin[0] - piece.first_input, lo, hi);
        piece_call.count_end[0] = std::clamp<int64_t>(call.count_end[0] - piece.first_input, lo, hi);
      }
      if (piece_call.kernel->variant == KernelVariant::kHalving && !halving_suits(geometry)) {
        return Status::internal(op_prefix(call) + "a split plane's piece lost the halving geometry");
      }
      if (needs_pieces(piece_call)) return Status::internal(op_prefix(call) + "a split plane's piece is still too large");
      // A piece's windows may lie far enough into the padding for segments.
      s = segments_pay_off(piece_call) ? launch_in_segments(piece_call) : launch_kernel(piece_call);
      if (!s) return s;
      if (indices) {
        rebase_indices(static_cast<int64_t*>(outputs[1].data), piece.outputs * out_slice, plane * in_plane, piece,
                       in_slice, g.axes[0].input, column_major);
      }
    }
    fill_rows(plane, plan.trailing_tapless, g.axes[0].output - plan.trailing_tapless);
  }
  return Status::ok();
}

// --- Global pools ---------------------------------------------------------

// A global kernel's launch over `count` planes of `size` elements, made
// once per call and aimed at each run of sub-planes in place: a run
// allocates nothing after the first wrote Y.
class GlobalLaunch {
 public:
  GlobalLaunch(const KernelCall& call, const KernelEntry& kernel, const TensorView& input, const TensorView& output)
      : geometry_(flat_planes(1, 1)),
        in_(input.data, input.type, {1, 1, 1}, input.device),
        out_(output.data, output.type, {1, 1, 1}, output.device),
        call_(call) {
    call_.kernel = &kernel;
    call_.geometry = &geometry_;
    call_.input = &in_;
    call_.outputs = {&out_};
  }
  GlobalLaunch(const GlobalLaunch&) = delete;
  GlobalLaunch& operator=(const GlobalLaunch&) = delete;

  // Planes of `size` elements from element `first` of `input` (the tensor
  // given to the constructor) into `output`, one value each.
  Status run(const TensorView& input, int64_t first, int64_t size, int64_t count, void* output) {
    geometry_.channels = count;
    geometry_.axes[0].input = size;
    geometry_.axes[0].kernel = size;
    geometry_.output_shape[1] = count;
    in_.data = element_at(input, first);
    in_.shape[1] = count;
    in_.shape[2] = size;
    out_.data = output;
    out_.shape[1] = count;
    return launch_kernel(call_);
  }

 private:
  WindowGeometry geometry_;
  TensorView in_, out_;
  KernelCall call_;
};

int64_t lp_power(const KernelCall& call) {
  const ScalarArg* p = call.scalar("p");
  return p != nullptr ? p->number : 2;
}

// The plane's mean from its sub-planes' means, weighted by their sizes.
double combine_means(const std::vector<double>& means, const std::vector<int64_t>& sizes, int64_t total) {
  long double sum = 0;
  for (size_t i = 0; i < means.size(); ++i) sum += static_cast<long double>(means[i]) * sizes[i];
  return static_cast<double>(sum / total);
}

// The plane's Lp norm from its sub-planes' norms: m * (sum (y/m)^p)^(1/p),
// m the largest, so no power overflows or underflows what matters.
double combine_norms(const std::vector<double>& norms, int64_t p) {
  double largest = 0;
  for (double y : norms) {
    if (std::isnan(y)) return y;
    largest = std::max(largest, y);
  }
  if (largest == 0 || std::isinf(largest)) return largest;
  long double sum = 0;
  for (double y : norms) sum += std::pow(static_cast<long double>(y / largest), static_cast<long double>(p));
  return static_cast<double>(largest * std::pow(sum, 1.0L / static_cast<long double>(p)));
}

Status launch_global_in_pieces(const KernelCall& call) {
  const WindowGeometry& g = *call.geometry;
  const PoolOp op = call.kernel->op;
  const ElementType type = call.input->type;
  const int64_t plane = g.input_plane_size();
  // 16-bit means and norms: the float32 kernel on widened sub-planes.
  const bool widen = op != PoolOp::kGlobalMaxPool && is_half_type(type);
  const KernelEntry* kernel = call.kernel;
  if (widen) {
    kernel = find_kernel(op, ElementType::kFloat32, 0, call.kernel->variant);
    if (kernel == nullptr) return Status::unsupported(op_prefix(call) + "this build has no float32 kernel to reduce a "
                                                      "16-bit plane past 2^31 bytes with");
  }
  const ElementType partial_type = widen ? ElementType::kFloat32 : type;
  const int64_t limit = max_kernel_buffer_bytes();
  const int64_t sub = std::clamp<int64_t>(limit / 8, 2, kSubPlaneElements);
  const int64_t whole = plane / sub, rest = plane % sub;
  // Sub-planes per widened batch: a float32 copy of at most 16 MiB (and
  // under one kernel buffer), which the kernel then reads from the cache.
  constexpr int64_t kWidenedBytes = int64_t{16} << 20;
  const int64_t batch = std::max<int64_t>(1, std::min({whole, limit / (sub * 4), kWidenedBytes / (sub * 4)}));
  note_host_allocation();
  // Everything the loop below needs, allocated before it writes Y.
  std::vector<uint8_t> partials(static_cast<size_t>((whole + 1) * element_size(partial_type)));
  std::vector<float> widened(widen ? static_cast<size_t>(std::max(batch * sub, rest)) : 0);
  const TensorView partial_view(partials.data(), partial_type, {1, whole + 1, 1});
  const TensorView widened_view(widened.data(), ElementType::kFloat32, {static_cast<int64_t>(widened.size())});
  const TensorView& source = widen ? widened_view : *call.input;
  GlobalLaunch sub_planes(call, *kernel, source, partial_view);
  GlobalLaunch of_partials(call, *call.kernel, partial_view, *call.outputs[0]);
  const int64_t parts = whole + (rest > 0 ? 1 : 0);
  // GlobalMaxPool: partial maxima past one sub-plane are folded again, in
  // rounds, between the partials and this second buffer.
  const bool fold = op == PoolOp::kGlobalMaxPool && parts > sub;
  std::vector<uint8_t> folded(fold ? static_cast<size_t>((parts / sub + 1) * element_size(partial_type)) : 0);
  const TensorView folded_view(folded.data(), partial_type, {1, parts / sub + 1, 1});
  GlobalLaunch of_folds(call, *call.kernel, partial_view, folded_view);
  std::vector<double> values(static_cast<size_t>(parts));
  std::vector<int64_t> sizes(static_cast<size_t>(parts), sub);
  if (rest > 0) sizes.back() = rest;
  auto reduce = [&](int64_t first, int64_t size, int64_t count, int64_t into) {
    void* out = element_at(partial_view, into);
    if (!widen) return sub_planes.run(*call.input, first, size, count, out);
    const uint16_t* bits = static_cast<const uint16_t*>(call.input->data) + first;
    for_chunks_in_parallel(size * count, [&](int64_t begin, int64_t end) {
      widen_half(bits + begin, type, widened.data() + begin, end - begin);
    });
    return sub_planes.run(widened_view, 0, size, count, out);
  };
  for (int64_t p = 0; p < g.planes(); ++p) {
    const int64_t start = p * plane;
    for (int64_t first = 0; first < whole; first += batch) {
      const int64_t count = widen ? std::min(batch, whole - first) : whole;
      Status s = reduce(start + first * sub, sub, count, first);
      if (!s) return s;
      if (!widen) break;  // one call: launch_kernel splits it by planes itself
    }
    if (rest > 0) {
      Status s = reduce(start + whole * sub, rest, 1, whole);
      if (!s) return s;
    }
    const TensorView& Y = *call.outputs[0];
    if (op == PoolOp::kGlobalMaxPool) {
      // The same kernel over the partial maxima: NaN and signed zeros as anywhere.
      const TensorView* from = &partial_view;
      const TensorView* to = &folded_view;
      int64_t left = parts;
      while (left > sub) {
        const int64_t rounds = left / sub, tail = left % sub;
        Status s = of_folds.run(*from, 0, sub, rounds, element_at(*to, 0));
        if (s && tail > 0) s = of_folds.run(*from, rounds * sub, tail, 1, element_at(*to, rounds));
        if (!s) return s;
        left = rounds + (tail > 0 ? 1 : 0);
        std::swap(from, to);
      }
      Status s = of_partials.run(*from, 0, left, 1, element_at(Y, p));
      if (!s) return s;
      continue;
    }
    for (int64_t i = 0; i < parts; ++i) values[i] = load_element(partials.data(), partial_type, i);
    const double result =
        op == PoolOp::kGlobalAveragePool ? combine_means(values, sizes, plane) : combine_norms(values, lp_power(call));
    store_element(Y.data, Y.type, p, result);
  }
  return Status::ok();
}

}  // namespace

#ifdef ONNXPOOL_TEST_HOOKS
int64_t max_kernel_buffer_bytes() {
  const int64_t t = test_limit.load(std::memory_order_relaxed);
  return t > 0 ? t : kInt32Max;
}

void set_max_kernel_buffer_bytes_for_testing(int64_t bytes) { test_limit.store(bytes, std::memory_order_relaxed); }

int64_t calls_run_in_pieces() { return pieces_run.load(std::memory_order_relaxed); }

std::vector<int64_t> last_piece_starts() {
  const std::lock_guard<std::mutex> lock(last_starts_mutex);
  return last_starts;
}
#else
int64_t max_kernel_buffer_bytes() { return kInt32Max; }
#endif

int64_t max_rows_per_task(const AxisWindow& x) {
  const Wide bytes = std::max<Wide>(1, row_buffer_positions(x)) * 8;
  return static_cast<int64_t>(std::max<Wide>(1, max_kernel_buffer_bytes() / bytes));
}

WindowGeometry flat_planes(int64_t planes, int64_t plane_size) {
  WindowGeometry g;
  g.batch = 1;
  g.channels = planes;
  AxisWindow flat;
  flat.input = plane_size;
  flat.output = 1;
  flat.kernel = plane_size;
  g.axes = {flat};
  g.output_shape = {1, planes, 1};
  return g;
}

bool needs_pieces(const KernelCall& call) {
  const WindowGeometry& g = *call.geometry;
  const int64_t limit = max_kernel_buffer_bytes();
  const Wide in_bytes = Wide{g.input_plane_size()} * element_size(call.input->type);
  if (call.kernel->spatial_rank == 0) {
    // Device tensors keep their planes whole below the buffer limit: pieces
    // run on the host only.
    const bool host = call.input->device == Device::kHost;
    return in_bytes > limit || (host && g.input_plane_size() > kLargestWholeGlobalPlane);
  }
  const Wide out_bytes = Wide{g.output_plane_size()} * output_element_bytes(call);
  const AxisWindow& a = g.axes[0];
  const Wide last_tap = Wide{a.output - 1} * a.stride - a.pad_begin + Wide{a.kernel - 1} * a.dilation;
  return in_bytes > limit || out_bytes > limit || a.pad_begin > kInt32Max || last_tap > kInt32Max ||
         one_axis_row_buffer_too_large(g, limit);
}

Status plan_row_pieces(const KernelCall& call, RowPlan* plan) {
  const WindowGeometry& g = *call.geometry;
  const AxisWindow& a = g.axes[0];
  const int64_t limit = max_kernel_buffer_bytes();
  const Wide in_row = Wide{slice_size(g, false)} * element_size(call.input->type);
  const Wide out_row = Wide{slice_size(g, true)} * output_element_bytes(call);
  if (in_row > limit || out_row > limit) {
    return Status::unsupported(op_prefix(call) + "one slice of X or of Y along the first spatial axis takes " +
                               std::to_string(static_cast<int64_t>(std::max(in_row, out_row))) +
                               " bytes; onnxpool splits planes past 2^31 bytes along that axis only, so each "
                               "slice must stay under 2^31 bytes");
  }
  const Wide max_inputs = limit / in_row;
  // Output rows per piece: their bytes, and the per-row tables (up to 8
  // bytes each) of AveragePool, under a kernel buffer.
  const Wide max_outputs = std::min<Wide>(limit / out_row, limit / 8);
  // Positions a piece's windows cover must fit int32; a 1D kernel buffers
  // them all (8 bytes each at most).
  const Wide max_positions = g.axes.size() == 1 ? limit / 8 : kInt32Max;
  const Wide span = positions_covered(a, 1);
  if (span > max_positions) {
    return Status::unsupported(op_prefix(call) + "one window along the first spatial axis covers " +
                               std::to_string(static_cast<int64_t>(span)) +
                               " positions (from 'kernel_shape' and 'dilations'); onnxpool's kernels address at "
                               "most 2^31 - 1 positions, or 2^31 bytes of them");
  }
  // Windows before the input (their last tap < 0) or after it (their first
  // tap >= input) hold no tap along this axis.
  const Wide reach = Wide{a.kernel - 1} * a.dilation;
  const Wide leading = std::max<Wide>(0, (Wide{a.pad_begin} - reach + a.stride - 1) / a.stride);
  const Wide trailing = (Wide{a.input} + a.pad_begin + a.stride - 1) / a.stride;
  plan->leading_tapless = static_cast<int64_t>(std::min<Wide>(leading, a.output));
  plan->trailing_tapless = static_cast<int64_t>(std::clamp<Wide>(trailing, plan->leading_tapless, a.output));
  plan->pieces.clear();
  for (int64_t o0 = plan->leading_tapless; o0 < plan->trailing_tapless;) {
    const int64_t left = plan->trailing_tapless - o0;
    int64_t first = 0, count = 0;
    // The most rows whose input rows, outputs and positions fit: the input
    // rows grow with n, so a binary search over n.
    int64_t lo = 1, hi = static_cast<int64_t>(std::min<Wide>({Wide{left}, max_outputs,
                                                             (max_positions - span) / a.stride + 1}));
    input_rows_for(a, o0, 1, &first, &count);
    if (count > max_inputs || hi < 1) {
      return Status::unsupported(op_prefix(call) + "one window along the first spatial axis reads " +
                                 std::to_string(count) + " slices of X, more than 2^31 bytes (from 'kernel_shape' "
                                 "and 'dilations'); onnxpool splits planes only between windows");
    }
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo + 1) / 2;
      input_rows_for(a, o0, mid, &first, &count);
      if (count <= max_inputs) lo = mid; else hi = mid - 1;
    }
    RowPiece piece;
    piece.first_output = o0;
    piece.outputs = lo;
    input_rows_for(a, o0, lo, &piece.first_input, &piece.inputs);
    plan->pieces.push_back(piece);
    o0 += lo;
  }
  return Status::ok();
}

Status launch_in_pieces(const KernelCall& call) {
  if (call.input->device != Device::kHost) {
    return Status::unsupported(op_prefix(call) + "X's planes pass 2^31 bytes or 2^31 - 1 positions; onnxpool splits "
                               "such planes on the host only, and X is a device tensor");
  }
  const KernelVariant v = call.kernel->variant;
  if (v == KernelVariant::kRangeCheck) return Status::internal(op_prefix(call) + "a range check cannot be split");
#ifdef ONNXPOOL_TEST_HOOKS
  pieces_run.fetch_add(1, std::memory_order_relaxed);
#endif
  return call.kernel->spatial_rank == 0 ? launch_global_in_pieces(call) : launch_windowed_in_pieces(call);
}

}  // namespace onnxpool::detail
