#include "plan/tensor_checks.h"

#include <algorithm>
#include <cstdint>
#include <limits>

#include "onnxpool/pooling.h"

namespace onnxpool::detail {

const char* device_name(Device device) { return device == Device::kCuda ? "CUDA device" : "host"; }

std::string shape_string(const int64_t* begin, const int64_t* end) {
  std::string s = "[";
  for (const int64_t* d = begin; d != end; ++d) s += (d != begin ? ", " : "") + std::to_string(*d);
  return s + "]";
}

namespace {

std::string where(PoolOp op, const char* name) { return std::string(op_name(op)) + ": tensor '" + name + "' "; }

}  // namespace

Status check_input(PoolOp op, const char* name, const TensorView& t, bool needs_data) {
  if (t.device != Device::kHost && t.device != Device::kCuda) {
    return Status::invalid_argument(where(op, name) + "has an unknown device code " +
                                    std::to_string(static_cast<int>(t.device)));
  }
  if (t.device == Device::kCuda && !backend_compiled(Backend::kCuda)) {
    return Status::unsupported(where(op, name) + "is in CUDA device memory; this build of onnxpool has no CUDA kernels");
  }
  if (element_size(t.type) == 0) {
    return Status::invalid_argument(where(op, name) + "has an unknown element type code " +
                                    std::to_string(static_cast<int>(t.type)));
  }
  for (int64_t d : t.shape) {
    if (d < 0) return Status::invalid_argument(where(op, name) + "has a negative dimension: " + shape_string(t.shape));
  }
  if (needs_data && t.data == nullptr) {
    bool empty = false;
    for (int64_t d : t.shape) empty = empty || d == 0;
    if (!empty) return Status::invalid_argument(where(op, name) + "has a null data pointer");
  }
  return Status::ok();
}

Status check_output(PoolOp op, const char* name, const TensorView& t, const TensorView& X,
                    ElementType type, const ShapeList& shape) {
  Status s = check_input(op, name, t);
  if (!s) return s;
  if (t.device != X.device) {
    return Status::invalid_argument(where(op, name) + "is in " + device_name(t.device) + " memory but 'X' is in " +
                                    device_name(X.device) + " memory; a call's tensors must all live in one place");
  }
  if (t.type != type) {
    return Status::invalid_argument(where(op, name) + "must be " + element_type_name(type) + ", got " +
                                    element_type_name(t.type));
  }
  if (shape != t.shape) {
    return Status::invalid_argument(where(op, name) + "must have shape " + shape_string(shape) + ", got " +
                                    shape_string(t.shape));
  }
  // Pads far past the input can make the right shape larger than any
  // buffer; refusing it keeps every product of Y's extents (plane sizes,
  // offsets) inside int64, as X's element-count check does for X.
  if (std::find(shape.begin(), shape.end(), 0) == shape.end()) {
    int64_t bytes = static_cast<int64_t>(element_size(type));
    for (int64_t d : shape) {
      if (bytes > std::numeric_limits<int64_t>::max() / d) {
        return Status::invalid_argument(where(op, name) + "of shape " + shape_string(shape) +
                                        " would hold more than 2^63 bytes: no buffer can (from 'pads')");
      }
      bytes *= d;
    }
  }
  return Status::ok();
}

}  // namespace onnxpool::detail
