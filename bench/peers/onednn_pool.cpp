#include "onednn_pool.h"

#include <dlfcn.h>

#include <dnnl.hpp>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace onnxpool_bench {
namespace {

using dnnl::memory;

// The layout's tag for `spatial_rank` axes (undef past 3D, which oneDNN's
// pooling does not take).
memory::format_tag format_tag_of(OnednnLayout layout, size_t spatial_rank) {
  using tag = memory::format_tag;
  static const tag tags[3][4] = {
      {tag::ncw, tag::nwc, tag::nCw16c, tag::nCw8c},
      {tag::nchw, tag::nhwc, tag::nChw16c, tag::nChw8c},
      {tag::ncdhw, tag::ndhwc, tag::nCdhw16c, tag::nCdhw8c},
  };
  if (spatial_rank < 1 || spatial_rank > 3) return tag::undef;
  return tags[spatial_rank - 1][static_cast<int>(layout)];
}

memory::dims spatial_dims(const std::vector<int64_t>& values) { return memory::dims(values.begin(), values.end()); }

// oneDNN takes its thread count from the OpenMP runtime it was built against
// (Debian's: libgomp). The calls are looked up in the process instead of
// linking -fopenmp, because a compiler other than GCC would link a second
// OpenMP runtime whose setting oneDNN would never see.
std::string set_openmp_threads(int threads) {
#if DNNL_CPU_THREADING_RUNTIME != DNNL_RUNTIME_OMP
  (void)threads;
  return "this oneDNN was not built with OpenMP threading; the benchmark only knows how to set "
         "OpenMP's thread count";
#else
  using SetThreads = void (*)(int);
  using GetThreads = int (*)();
  auto set = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "omp_set_num_threads"));
  auto get = reinterpret_cast<GetThreads>(dlsym(RTLD_DEFAULT, "omp_get_max_threads"));
  if (set == nullptr || get == nullptr) return "oneDNN's OpenMP runtime is not loaded";
  set(threads);
  if (get() != threads)
    return "OpenMP ignored the requested thread count " + std::to_string(threads);
  return std::string();
#endif
}

// Makes the primitive descriptor for source and destination descriptors in
// the benchmark's layout; returns the primitive and oneDNN's implementation name.
using MakePrimitive = std::function<dnnl::primitive(const dnnl::engine&, const memory::desc& src,
                                                    const memory::desc& dst, std::string* impl)>;

// One oneDNN primitive with one source and one destination, both in `layout`.
class OnednnPrimitive final : public PoolRunner {
 public:
  OnednnPrimitive(const PoolNode& node, OnednnLayout layout, int threads, const float* input_nchw,
                  const MakePrimitive& make_primitive)
      : engine_(dnnl::engine::kind::cpu, 0), stream_(engine_) {
    const std::string thread_error = set_openmp_threads(threads);
    if (!thread_error.empty()) {
      fail("oneDNN: " + thread_error);
      return;
    }
    const memory::format_tag tag = format_tag_of(layout, node.spatial_rank());
    const memory::format_tag plain = format_tag_of(OnednnLayout::kNchw, node.spatial_rank());
    try {
      const memory::dims src_dims(node.input.begin(), node.input.end());
      dst_nchw_desc_ = memory::desc(memory::dims(node.output.begin(), node.output.end()),
                                    memory::data_type::f32, plain);
      const memory::desc src_desc(src_dims, memory::data_type::f32, tag);
      const memory::desc dst_desc(dst_nchw_desc_.dims(), memory::data_type::f32, tag);
      primitive_ = make_primitive(engine_, src_desc, dst_desc, &implementation_);

      src_ = memory(src_desc, engine_);
      dst_ = memory(dst_desc, engine_);
      memory user_src(memory::desc(src_dims, memory::data_type::f32, plain), engine_,
                      const_cast<float*>(input_nchw));
      dnnl::reorder(user_src, src_).execute(stream_, user_src, src_);
      stream_.wait();
      args_ = {{DNNL_ARG_SRC, src_}, {DNNL_ARG_DST, dst_}};
    } catch (const dnnl::error& e) {
      fail(std::string("oneDNN setup: ") + e.what());
    }
  }

  bool run() override {
    try {
      primitive_.execute(stream_, args_);
      stream_.wait();
    } catch (const dnnl::error& e) {
      return fail(std::string("oneDNN execute: ") + e.what());
    }
    return true;
  }

  std::vector<float> output_nchw() const override {
    std::vector<float> values(dst_nchw_desc_.get_size() / sizeof(float));
    memory nchw(dst_nchw_desc_, engine_, values.data());
    memory dst = dst_;  // a handle copy: reorder wants a non-const handle
    dnnl::stream stream(engine_);
    dnnl::reorder(dst, nchw).execute(stream, dst, nchw);
    stream.wait();
    return values;
  }

  std::string label() const override { return implementation_; }

  // oneDNN's reference code ("ref:any") is its correctness fallback, tens to
  // hundreds of times its other kernels' time: never the fastest peer, and
  // seconds per benchmark on the large 3D nodes.
  std::string not_timed() const override {
    if (implementation_.rfind("ref", 0) != 0) return std::string();
    return "oneDNN has only its reference implementation (" + implementation_ +
           ") for this node in this layout: output checked, not timed";
  }

 private:
  dnnl::engine engine_;
  dnnl::stream stream_;
  dnnl::primitive primitive_;
  memory src_;
  memory dst_;
  memory::desc dst_nchw_desc_;
  std::unordered_map<int, memory> args_;  // built once: the map is not part of the pooling
  std::string implementation_;
};

class Unsupported final : public PoolRunner {
 public:
  explicit Unsupported(std::string why) { fail(std::move(why)); }
  bool run() override { return false; }
  std::vector<float> output_nchw() const override { return {}; }
};

}  // namespace

const char* onednn_layout_name(OnednnLayout layout) {
  switch (layout) {
    case OnednnLayout::kNchw: return "nchw";
    case OnednnLayout::kNhwc: return "nhwc";
    case OnednnLayout::kNChw16c: return "nChw16c";
    case OnednnLayout::kNChw8c: return "nChw8c";
  }
  return "unknown";
}

bool onednn_has_pooling(const PoolOpSpec& op) { return op.reduction != Reduction::kLp; }

std::string onednn_pool_unsupported(const PoolNode& node) {
  if (!onednn_has_pooling(node.op)) return std::string("oneDNN has no pooling for ") + node.op.name;
  if (format_tag_of(OnednnLayout::kNchw, node.spatial_rank()) == memory::format_tag::undef) {
    return "oneDNN pools 1 to 3 spatial axes, not " + std::to_string(node.spatial_rank());
  }
  // pooling_avg_include_padding divides every window by the whole kernel; ONNX
  // counts the pads but not the taps past them that ceil_mode's last window
  // reaches (its outputs differed there when tried, in every layout).
  for (size_t axis = 0; axis < node.spatial_rank(); ++axis) {
    if (node.op.reduction == Reduction::kAverage && node.count_include_pad && node.ceil_extension(axis) > 0) {
      return "oneDNN's pooling_avg_include_padding counts ceil_mode's overhang past the end pads as "
             "padding (count_include_pad = 1 with ceil_mode)";
    }
  }
  return std::string();
}

std::unique_ptr<PoolRunner> make_onednn_pool(const PoolNode& node, OnednnLayout layout, int threads,
                                             const float* input_nchw) {
  const std::string unsupported = onednn_pool_unsupported(node);
  if (!unsupported.empty()) return std::make_unique<Unsupported>(unsupported);
  const dnnl::algorithm algorithm =
      node.op.reduction == Reduction::kMax ? dnnl::algorithm::pooling_max
      : node.count_include_pad            ? dnnl::algorithm::pooling_avg_include_padding
                                          : dnnl::algorithm::pooling_avg_exclude_padding;
  // oneDNN sizes its output with the floor formula: ceil_mode becomes extra
  // end padding (floor_mode_pad_end), which neither max nor exclude_padding reads.
  std::vector<int64_t> pad_end(node.spatial_rank());
  std::vector<int64_t> onednn_dilations(node.spatial_rank());
  for (size_t axis = 0; axis < node.spatial_rank(); ++axis) {
    pad_end[axis] = node.floor_mode_pad_end(axis);
    onednn_dilations[axis] = node.dilations[axis] - 1;  // oneDNN counts the gaps: 0 is none
  }
  const MakePrimitive make = [node, algorithm, pad_end, onednn_dilations](
                                 const dnnl::engine& engine, const memory::desc& src,
                                 const memory::desc& dst, std::string* impl) {
    const auto prop = dnnl::prop_kind::forward_inference;
    if (!node.dilated()) {
      // pooling_forward, as the suite has always measured, where no dilation asks for _v2.
      const dnnl::pooling_forward::desc desc(prop, algorithm, src, dst, spatial_dims(node.strides),
                                             spatial_dims(node.kernel), spatial_dims(node.pad_begin),
                                             spatial_dims(pad_end));
      const dnnl::pooling_forward::primitive_desc pd(desc, engine);
      *impl = pd.impl_info_str();
      return dnnl::primitive(dnnl::pooling_forward(pd));
    }
    const dnnl::pooling_v2_forward::desc desc(prop, algorithm, src, dst, spatial_dims(node.strides),
                                              spatial_dims(node.kernel), spatial_dims(onednn_dilations),
                                              spatial_dims(node.pad_begin), spatial_dims(pad_end));
    const dnnl::pooling_v2_forward::primitive_desc pd(desc, engine);
    *impl = pd.impl_info_str();
    return dnnl::primitive(dnnl::pooling_v2_forward(pd));
  };
  return std::make_unique<OnednnPrimitive>(node, layout, threads, input_nchw, make);
}

std::unique_ptr<PoolRunner> make_onednn_pool(const PoolOpSpec& op, const PoolCase& pc,
                                             OnednnLayout layout, int threads,
                                             const float* input_nchw) {
  return make_onednn_pool(pool_node(op, pc), layout, threads, input_nchw);
}

std::unique_ptr<PoolRunner> make_onednn_reduction(const PoolNode& node, OnednnLayout layout,
                                                  int threads, const float* input_nchw) {
  if (!node.op.global) {
    return std::make_unique<Unsupported>(std::string("a reduction is no ") + node.op.name);
  }
  if (format_tag_of(layout, node.spatial_rank()) == memory::format_tag::undef) {
    return std::make_unique<Unsupported>("the benchmark lays out 1 to 3 spatial axes for oneDNN, not " +
                                         std::to_string(node.spatial_rank()));
  }
  const dnnl::algorithm algorithm = node.op.reduction == Reduction::kMax ? dnnl::algorithm::reduction_max
                                    : node.op.reduction == Reduction::kAverage
                                        ? dnnl::algorithm::reduction_mean
                                        : dnnl::algorithm::reduction_norm_lp_sum;
  const float p = static_cast<float>(node.p);
  const MakePrimitive make = [algorithm, p](const dnnl::engine& engine, const memory::desc& src,
                                            const memory::desc& dst, std::string* impl) {
    const dnnl::reduction::desc desc(algorithm, src, dst, p, /*eps=*/0.0f);
    const dnnl::reduction::primitive_desc pd(desc, engine);
    *impl = pd.impl_info_str();
    return dnnl::primitive(dnnl::reduction(pd));
  };
  return std::make_unique<OnednnPrimitive>(node, layout, threads, input_nchw, make);
}

std::unique_ptr<PoolRunner> make_onednn_reduction(const PoolOpSpec& op, const PoolCase& pc,
                                                  OnednnLayout layout, int threads,
                                                  const float* input_nchw) {
  return make_onednn_reduction(pool_node(op, pc), layout, threads, input_nchw);
}

}  // namespace onnxpool_bench
