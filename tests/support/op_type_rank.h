// One (operator, element type, spatial rank) combination: the parameter of
// the per-combination property tests, named readably in gtest and ctest.
#pragma once

#include <gtest/gtest.h>

#include <ostream>
#include <string>

#include "onnxpool/attributes.h"
#include "reference/host_tensor.h"

namespace onnxpool_test {

struct OpTypeRank {
  onnxpool::PoolOp op;
  ElementType type;
  int rank;
};

inline std::string label(const OpTypeRank& p) {
  return std::string(onnxpool::op_name(p.op)) + "_" + type_label(p.type) + "_" + std::to_string(p.rank) + "d";
}

// Readable parameters in test output and ctest names.
inline void PrintTo(const OpTypeRank& p, std::ostream* out) { *out << label(p); }

inline std::string param_name(const testing::TestParamInfo<OpTypeRank>& info) { return label(info.param); }

}  // namespace onnxpool_test
