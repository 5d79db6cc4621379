// PoolOperator: one pooling node, created once for its attributes and X's
// shape, type and device, then run many times. Validation, geometry, kernel
// choice and how the call is cut are done at create(); run() checks the
// tensors against what the operator was created for and runs the kernels.
// The one-shot functions of onnxpool/pooling.h do both steps on every call.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "onnxpool/attributes.h"
#include "onnxpool/status.h"
#include "onnxpool/tensor.h"

namespace onnxpool {

class PoolOperator {
 public:
  PoolOperator();
  ~PoolOperator();
  PoolOperator(PoolOperator&&) noexcept;
  PoolOperator& operator=(PoolOperator&&) noexcept;
  PoolOperator(const PoolOperator&) = delete;
  PoolOperator& operator=(const PoolOperator&) = delete;

  // Plans the node for X of `x_shape`, `type` and `device`. On error `op` is
  // left as it was and the status names the attribute or tensor at fault, as
  // the one-shot functions' do. The backend, CPU variant limit and thread
  // count in effect now are the operator's for its lifetime: create it
  // again to follow a later set_backend, set_cpu_variant_limit or
  // set_num_threads.
  static Status create(const PoolAttributes& attributes, const std::vector<int64_t>& x_shape, ElementType type,
                       PoolOperator* op, Device device = Device::kHost);

  // Runs the node: X must have the shape, type and device it was created
  // for, Y (and Indices, MaxPool only, optional) the shapes output_shape()
  // gives. Safe from many threads at once on one operator.
  Status run(const TensorView& X, const TensorView& Y, const TensorView* Indices = nullptr) const;

  // False for a default-constructed or moved-from operator (run() then
  // returns kInvalidArgument).
  bool created() const { return state_ != nullptr; }
  // Y's shape (and Indices'); empty when not created.
  const std::vector<int64_t>& output_shape() const;
  // The plan in words, for logs and bug reports: operator, shapes, kernel,
  // target, how the call is cut, threads, and each kernel family weighed
  // with why it was declined. MaxPool describes its plans with and without
  // Indices.
  std::string describe() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace onnxpool
