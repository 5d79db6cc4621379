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

memory::format_tag format_tag_of(OnednnLayout layout) {
  switch (layout) {
    case OnednnLayout::kNchw: return memory::format_tag::nchw;
    case OnednnLayout::kNhwc: return memory::format_tag::nhwc;
    case OnednnLayout::kNChw16c: return memory::format_tag::nChw16c;
  }
  return memory::format_tag::undef;
}

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
  OnednnPrimitive(const PoolCase& pc, OnednnLayout layout, int threads, const float* input_nchw,
                  const MakePrimitive& make_primitive)
      : engine_(dnnl::engine::kind::cpu, 0), stream_(engine_) {
    const std::string thread_error = set_openmp_threads(threads);
    if (!thread_error.empty()) {
      fail("oneDNN: " + thread_error);
      return;
    }
    try {
      const memory::dims src_dims = {pc.n, pc.c, pc.h, pc.w};
      dst_nchw_desc_ = memory::desc({pc.n, pc.c, pc.out_h(), pc.out_w()}, memory::data_type::f32,
                                    memory::format_tag::nchw);
      const memory::desc src_desc(src_dims, memory::data_type::f32, format_tag_of(layout));
      const memory::desc dst_desc(dst_nchw_desc_.dims(), memory::data_type::f32,
                                  format_tag_of(layout));
      primitive_ = make_primitive(engine_, src_desc, dst_desc, &implementation_);

      src_ = memory(src_desc, engine_);
      dst_ = memory(dst_desc, engine_);
      memory user_src(memory::desc(src_dims, memory::data_type::f32, memory::format_tag::nchw),
                      engine_, const_cast<float*>(input_nchw));
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
  }
  return "unknown";
}

bool onednn_has_pooling(const PoolOpSpec& op) { return op.reduction != Reduction::kLp; }

std::unique_ptr<PoolRunner> make_onednn_pool(const PoolOpSpec& op, const PoolCase& pc,
                                             OnednnLayout layout, int threads,
                                             const float* input_nchw) {
  if (!onednn_has_pooling(op)) {
    return std::make_unique<Unsupported>(std::string("oneDNN has no pooling for ") + op.name);
  }
  const dnnl::algorithm algorithm =
      op.reduction == Reduction::kMax ? dnnl::algorithm::pooling_max
      : kCountIncludePad              ? dnnl::algorithm::pooling_avg_include_padding
                                      : dnnl::algorithm::pooling_avg_exclude_padding;
  const MakePrimitive make = [&pc, algorithm](const dnnl::engine& engine, const memory::desc& src,
                                              const memory::desc& dst, std::string* impl) {
    const dnnl::pooling_forward::desc desc(
        dnnl::prop_kind::forward_inference, algorithm, src, dst, {pc.stride_h, pc.stride_w},
        {pc.kernel_h, pc.kernel_w}, {pc.pad_top, pc.pad_left}, {pc.pad_bottom, pc.pad_right});
    const dnnl::pooling_forward::primitive_desc pd(desc, engine);
    *impl = pd.impl_info_str();
    return dnnl::primitive(dnnl::pooling_forward(pd));
  };
  return std::make_unique<OnednnPrimitive>(pc, layout, threads, input_nchw, make);
}

std::unique_ptr<PoolRunner> make_onednn_reduction(const PoolOpSpec& op, const PoolCase& pc,
                                                  OnednnLayout layout, int threads,
                                                  const float* input_nchw) {
  if (!op.global) {
    return std::make_unique<Unsupported>(std::string("a reduction is no ") + op.name);
  }
  const dnnl::algorithm algorithm = op.reduction == Reduction::kMax ? dnnl::algorithm::reduction_max
                                    : op.reduction == Reduction::kAverage
                                        ? dnnl::algorithm::reduction_mean
                                        : dnnl::algorithm::reduction_norm_lp_sum;
  const MakePrimitive make = [algorithm](const dnnl::engine& engine, const memory::desc& src,
                                         const memory::desc& dst, std::string* impl) {
    const dnnl::reduction::desc desc(algorithm, src, dst, static_cast<float>(kLpP), /*eps=*/0.0f);
    const dnnl::reduction::primitive_desc pd(desc, engine);
    *impl = pd.impl_info_str();
    return dnnl::primitive(dnnl::reduction(pd));
  };
  return std::make_unique<OnednnPrimitive>(pc, layout, threads, input_nchw, make);
}

}  // namespace onnxpool_bench
