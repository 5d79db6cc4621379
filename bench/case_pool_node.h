// A parsed case string as the node the C++ peers and the N-D reference take.
#pragma once

#include <string>

#include "case_string.h"
#include "pool_node.h"
#include "shapes.h"

namespace onnxpool_bench {

// The suite's operator of the same name (kMaxPool, ...).
const PoolOpSpec& suite_op(onnxpool::PoolOp op);

// `spec` resolved: strides and dilations as onnxpool filled them in, pads
// after auto_pad (onnxpool::resolve_pads), the output shape onnxpool inferred
// (ceil_mode included); a global node's window is its whole input. False, with
// *error, where onnxpool cannot resolve the pads (parse_case_string has
// already validated the node, so this is not expected).
bool case_pool_node(const CaseSpec& spec, PoolNode* node, std::string* error);

}  // namespace onnxpool_bench
