// What the benchmark loop needs from one implementation of a pooling node.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace onnxpool_bench {

// One implementation, set up for one case and thread count, with the input
// already in the layout it prefers. Everything that is not the pooling itself
// (allocation, layout reorders, primitive or operator creation, thread-pool
// start-up) happens when the runner is made; run() is the only timed call.
class PoolRunner {
 public:
  virtual ~PoolRunner() = default;

  // Pools once. False means it failed, and error() says why.
  virtual bool run() = 0;

  // The last run's output converted to NCHW, for checking against the
  // reference; conversion cost is not timed.
  virtual std::vector<float> output_nchw() const = 0;
  // Whether run() also writes MaxPool's Indices output, and that output.
  virtual bool has_indices() const { return false; }
  virtual std::vector<int64_t> indices() const { return {}; }

  // Which code path the implementation picked (e.g. oneDNN's "jit:avx512_core"),
  // shown as the benchmark's label so a slow row can be explained.
  virtual std::string label() const { return std::string(); }
  // Why the row is checked but not timed (a peer's fallback code that is
  // never the fastest and would take minutes on the large nodes), or empty.
  virtual std::string not_timed() const { return std::string(); }

  // Non-empty when setup or the last run failed; a runner whose setup failed
  // must not be run.
  const std::string& error() const { return error_; }

 protected:
  bool fail(std::string message) {
    error_ = std::move(message);
    return false;
  }

 private:
  std::string error_;
};

}  // namespace onnxpool_bench
