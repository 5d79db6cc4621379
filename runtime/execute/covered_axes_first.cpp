#include "execute/covered_axes_first.h"

#include <string>

#include "platform/scratch_allocator.h"

namespace onnxpool::detail {

Status run_covered_axes_first(const KernelCall& reduce, const KernelCall& window, const TensorView& X,
                              const TensorView& Y) {
  const int64_t values = reduce.geometry->planes();
  if (values != window.geometry->planes() * window.geometry->input_plane_size()) {
    return Status::internal("run_covered_axes_first: the steps' geometries disagree");
  }
  // The call's pool (guarded_call opened it): a call in steady state takes
  // the block its first call left in the cache, with no allocator call.
  ScratchScope scope;
  void* block = scope.pool().take(static_cast<size_t>(values) * element_size(X.type));
  if (block == nullptr) {
    return Status::internal(std::string(op_name(window.kernel->op)) +
                            ": Out of memory (the scratch between its two kernel launches was refused)");
  }
  struct GiveBack {
    CallScratch& pool;
    void* block;
    ~GiveBack() { pool.give(block); }
  } give_back{scope.pool(), block};
  // Views without shapes (no heap): the launches read the geometries.
  const TensorView reduced(block, X.type, {}, X.device);
  KernelCall first = reduce;
  first.input = &X;
  first.outputs = {&reduced};
  const Status s = launch_kernel(first);
  if (!s) return s;
  KernelCall second = window;
  second.input = &reduced;
  second.outputs = {&Y};
  return launch_kernel(second);
}

}  // namespace onnxpool::detail
