// The pooling entry points. Every call validates its arguments first and, on
// error, returns a status that names the offending attribute or tensor and
// writes nothing. Memory the system refuses (kInternal, "out of memory")
// leaves Y and Indices as they were too, except in the calls that allocate
// between kernel launches (LpPool planes redone exactly, windows far past X
// run in segments; on a GPU backend, planes past 2^31 bytes run in pieces;
// docs/reliability.md).
// Any other failure inside a kernel may have written part of Y and Indices.
// Calls are safe from many threads at once. On the CPU an ordinary call
// makes no heap allocation of the runtime's own; its kernels' scratch comes
// from a cache that grows only when a call needs more than earlier calls
// left there (docs/reliability.md, "Calls without heap allocation").
#pragma once

#include "onnxpool/attributes.h"
#include "onnxpool/status.h"
#include "onnxpool/tensor.h"

namespace onnxpool {

// MaxPool. Y has X's element type and the shape from infer_output_shape.
// Indices is optional (nullptr to skip): int64, same shape as Y, flattened
// over the whole input, (n*C + c) * prod(spatial) + offset, where offset is
// row-major (storage_order = 0) or column-major (storage_order = 1).
//
// Order and NaN policy: values compare as IEEE 754-2019 `maximum` does: a
// window holding a NaN yields NaN (the canonical quiet NaN, payload not kept)
// and +0 > -0. Indices points at the first maximum in scan order, so at the
// first NaN of a window that has one. A window with no tap inside the input
// (pads as wide as the kernel, or dilations stepping over the input) yields
// the type's lowest value (-inf for floats) and index -1.
Status max_pool(const PoolAttributes& attributes, const TensorView& X, const TensorView& Y,
                const TensorView* Indices = nullptr);

// AveragePool. Y has X's element type. count_include_pad = 0 divides each
// window's sum by its taps inside X; = 1 by its taps inside
// [-pad_begin, in + pad_end) (a ceil_mode window running past the end pad does
// not count the taps beyond it). A window with no tap to count (possible only
// with count_include_pad = 0, when pads or dilations step over X) is the mean
// of nothing and gives NaN. 16-bit floats accumulate in float32. Sums start
// from -0.0, the identity of IEEE addition, so a window of -0 taps gives -0
// and one of padding only (count_include_pad = 1) gives -0 too.
Status average_pool(const PoolAttributes& attributes, const TensorView& X, const TensorView& Y);

// LpPool: (sum over the taps inside X of |x|^p)^(1/p), p an integer >= 1;
// padding adds nothing and partial ceil_mode windows are not rescaled. The
// result is finite whenever the exact one is: large values never overflow and
// tiny ones never underflow in the intermediate sum. A NaN tap gives NaN, an
// infinite one +inf.
Status lp_pool(const PoolAttributes& attributes, const TensorView& X, const TensorView& Y);

// Global pools: X is [N, C, D1, ..., Dk] with k >= 1 (any rank >= 3), Y is
// [N, C, 1, ..., 1]. GlobalMaxPool follows max_pool's NaN and +-0 policy;
// GlobalLpPool takes p from the attributes (ONNX default 2).
Status global_max_pool(const PoolAttributes& attributes, const TensorView& X, const TensorView& Y);
Status global_average_pool(const PoolAttributes& attributes, const TensorView& X, const TensorView& Y);
Status global_lp_pool(const PoolAttributes& attributes, const TensorView& X, const TensorView& Y);

// Runs whichever operator `attributes.op` names; Indices only for MaxPool
// (must be nullptr otherwise).
Status pool(const PoolAttributes& attributes, const TensorView& X, const TensorView& Y,
            const TensorView* Indices = nullptr);

// Threads used by the kernels; 0 means one per hardware thread (the default).
// Returns invalid_argument for a negative count. After use_thread_pool
// (onnxpool/thread_pool.h) it goes back to onnxpool's own threads, and
// num_threads() is the caller's pool's count until then.
Status set_num_threads(int threads);
int num_threads();

// Where the kernels run for host tensors. kCpu (the default): this process's
// threads. kOpenCL, kCuda: a GPU through that API, in a build with its
// targets (backend_compiled); each call uploads X, runs, and copies the
// results back into Y (and Indices). Tensors in CUDA device memory
// (Device::kCuda) always run on CUDA and stay there, whatever is set here.
// No driver, no device or a failing GPU call gives a status, never an abort.
enum class Backend { kCpu, kOpenCL, kCuda };
// invalid_argument for a value outside the enum; unsupported for a backend
// this build has no kernels for.
Status set_backend(Backend backend);
Backend active_backend();
bool backend_compiled(Backend backend);
// "cpu", "opencl", "cuda".
const char* backend_name(Backend backend);

// Caps the instruction-set variant the x86 runtime dispatcher may pick, e.g.
// to compare variants or to avoid AVX-512 clock throttling. kNative (the
// default) picks the best variant this CPU supports.
enum class CpuVariant { kNative, kAvx512, kAvx2, kBaseline };
Status set_cpu_variant_limit(CpuVariant limit);
// The variant the dispatcher would pick now on this CPU under the current limit.
CpuVariant active_cpu_variant();
const char* cpu_variant_name(CpuVariant variant);

}  // namespace onnxpool
