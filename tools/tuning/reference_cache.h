// The reference's results for the tuning nodes, kept on disk: every
// candidate of a kernel is checked in its own runner process on the same
// nodes and inputs, and on a large node (S2: 32x64x112x112) computing the
// reference is most of a check. tools/tune.py gives each version of the
// checking code its own directory, so a result is never reused across a
// change to the reference.
#pragma once

#include <string>

#include "reference/reference_pooling.h"
#include "support/pool_expectation.h"

namespace onnxpool_tune {

class ReferenceCache {
 public:
  // An empty `dir` caches nothing.
  explicit ReferenceCache(std::string dir) : dir_(std::move(dir)) {}

  // False when `key` has no complete entry (never written, or cut short).
  bool load(const std::string& key, onnxpool_test::MaxPoolResult* out) const;
  bool load(const std::string& key, onnxpool_test::PoolExpectation* out) const;
  // Best effort: a failed write only means the next check computes it again.
  void store(const std::string& key, const onnxpool_test::MaxPoolResult& result) const;
  void store(const std::string& key, const onnxpool_test::PoolExpectation& expectation) const;

  bool enabled() const { return !dir_.empty(); }

 private:
  std::string path(const std::string& key) const;
  std::string dir_;
};

}  // namespace onnxpool_tune
