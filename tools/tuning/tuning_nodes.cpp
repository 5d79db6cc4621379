#include "tuning_nodes.h"

#include <cctype>
#include <cstring>

#include "onnxpool/onnxpool.h"
#include "support/maxpool_check.h"
#include "support/onnx_attributes.h"
#include "support/maxpool_cases.h"
#include "support/pool_cases.h"
#include "support/pool_check.h"
#include "support/random.h"
#include "support/value_fills.h"

namespace onnxpool_tune {
namespace {

using onnxpool::PoolOp;
using onnxpool_test::HostTensor;

constexpr char kIndicesField[] = ":indices";
// Inputs from this many elements up get their reference results cached.
constexpr int64_t kCachedNodeElements = int64_t{1} << 18;

std::string to_upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

onnxpool_test::PoolSpec pool_spec(const onnxpool_bench::CaseSpec& c) {
  onnxpool_test::PoolSpec spec;
  spec.kernel_shape = c.kernel_shape;
  spec.strides = c.strides;
  spec.dilations = c.dilations;
  spec.pads = c.pads;
  if (!c.auto_pad.empty()) spec.auto_pad = to_upper(c.auto_pad);
  spec.ceil_mode = c.ceil_mode;
  spec.count_include_pad = c.count_include_pad;
  spec.p = c.p;
  return spec;
}

std::string dims_text(const std::vector<int64_t>& dims) {
  std::string text;
  for (size_t i = 0; i < dims.size(); ++i) text += (i ? "x" : "") + std::to_string(dims[i]);
  return text;
}

const char* op_token(PoolOp op) {
  switch (op) {
    case PoolOp::kMaxPool: return "maxpool";
    case PoolOp::kAveragePool: return "averagepool";
    case PoolOp::kLpPool: return "lppool";
    case PoolOp::kGlobalMaxPool: return "globalmaxpool";
    case PoolOp::kGlobalAveragePool: return "globalaveragepool";
    case PoolOp::kGlobalLpPool: return "globallppool";
  }
  return "";
}

// A window of `k` taps with stride `s` and pad `p` on every axis.
std::string window_fields(int rank, int64_t k, int64_t s, int64_t p) {
  const std::vector<int64_t> ks(rank, k), ss(rank, s), ps(2 * rank, p);
  std::string text = ":k" + dims_text(ks) + ":s" + dims_text(ss);
  if (p != 0) text += ":p" + dims_text(ps);
  return text;
}

}  // namespace

bool parse_node(const std::string& text, TuningNode* node, std::string* error) {
  std::string plain = text;
  node->with_indices = false;
  const size_t field = sizeof kIndicesField - 1;
  if (plain.size() > field && plain.compare(plain.size() - field, field, kIndicesField) == 0) {
    plain.resize(plain.size() - field);
    node->with_indices = true;
  }
  if (!onnxpool_bench::parse_case_string(plain, &node->spec, error)) return false;
  if (node->with_indices && node->spec.op != PoolOp::kMaxPool) {
    *error = "'" + text + "': only maxpool has Indices (:indices)";
    return false;
  }
  node->text = text;
  return true;
}

std::optional<std::string> check_node(const TuningNode& node, uint64_t seed, const ReferenceCache& cache) {
  onnxpool_test::Random random(seed);
  HostTensor X(node.spec.type, node.spec.shape);
  const onnxpool_test::PoolSpec spec = pool_spec(node.spec);
  // Only where the reference costs more than reading its result back.
  const bool cached = cache.enabled() && X.size() >= kCachedNodeElements;
  const std::string key = node.text + " seed " + std::to_string(seed);
  testing::AssertionResult result = testing::AssertionSuccess();
  if (node.spec.op == PoolOp::kMaxPool) {
    onnxpool_test::fill_with_ties(random, &X, 0.02);
    const onnxpool_test::MaxPoolCase c = onnxpool_test::make_max_pool_case(spec, std::move(X), node.with_indices);
    onnxpool_test::MaxPoolResult expected;
    if (cached && !cache.load(key, &expected)) {
      expected = onnxpool_test::reference_max_pool(c.spec, c.X);
      cache.store(key, expected);
    }
    result = onnxpool_test::library_matches_reference(c, cached ? &expected : nullptr);
  } else {
    onnxpool_test::PoolCase c;
    if (node.spec.op == PoolOp::kGlobalMaxPool) {
      // The max fills, not the sum pools': those hold zeros of both signs,
      // whose maximum's sign ONNX leaves open, so an exact check would
      // reject a right kernel.
      onnxpool_test::fill_for_global_max(random, &X);
      c = onnxpool_test::make_pool_case(node.spec.op, spec, std::move(X));
    } else {
      c = onnxpool_test::make_filled_sum_pool_case(random, node.spec.op, spec, std::move(X));
    }
    onnxpool_test::PoolExpectation expected;
    if (cached && !cache.load(key, &expected)) {
      expected = onnxpool_test::expected_pool_result(c);
      cache.store(key, expected);
    }
    result = onnxpool_test::pool_matches_reference(c, cached ? &expected : nullptr);
  }
  if (result) return std::nullopt;
  return node.text + " (seed " + std::to_string(seed) + "): " + result.message();
}

std::vector<std::string> tiny_nodes(PoolOp op, onnxpool::ElementType type, int spatial_rank, bool with_indices) {
  const std::string type_field = std::string(":") + onnxpool_bench::case_type_name(type);
  const std::string suffix = type_field + (with_indices ? kIndicesField : "");
  std::vector<std::string> nodes;
  const std::string name = op_token(op);
  if (spatial_rank == 0 && !onnxpool_test::is_global_pool(op)) {
    // A kernel of every rank (LpPool's range pass): the 1D and 2D windows.
    std::vector<std::string> of_ranks = tiny_nodes(op, type, 1, with_indices);
    for (std::string& n : tiny_nodes(op, type, 2, with_indices)) of_ranks.push_back(std::move(n));
    return of_ranks;
  }
  if (spatial_rank == 0) {
    // Planes from one element past a few vectors of the widest target, the
    // unrolled 7x7 and 14x14, and plane counts around the vectors of planes.
    for (int64_t size : {1, 2, 3, 5, 7, 8, 15, 16, 17, 31, 33, 49, 63, 64, 65, 129, 196}) {
      for (int64_t planes : {1, 3, 16, 17, 34}) {
        nodes.push_back(name + ":1x" + std::to_string(planes) + "x" + std::to_string(size) + suffix);
      }
    }
    nodes.push_back(name + ":2x3x5x7" + suffix);
    nodes.push_back(name + ":1x2x3x4x5" + suffix);
    return nodes;
  }
  struct Window {
    int64_t k, s, p;
  };
  // The windows the schedules give loops of their own (3x3/s2, 2x2/s2,
  // 3x3/s1 "same", 1x1) and a generic one.
  const Window windows[] = {{3, 2, 1}, {2, 2, 0}, {3, 1, 1}, {1, 1, 0}, {5, 3, 2}};
  const std::vector<int64_t> widths = onnxpool_test::schedule_edge_widths();
  for (const Window& w : windows) {
    for (int64_t width : widths) {
      if (width + 2 * w.p < w.k) continue;
      std::vector<int64_t> shape = {1, 2};
      for (int i = 0; i + 1 < spatial_rank; ++i) shape.push_back(i == 0 ? 7 : 3);
      shape.push_back(width);
      nodes.push_back(name + ":" + dims_text(shape) + window_fields(spatial_rank, w.k, w.s, w.p) + suffix);
    }
  }
  // One element, and the ResNet stem's geometry at a width it unrolls and
  // one short of it.
  const std::vector<int64_t> one(static_cast<size_t>(spatial_rank + 2), 1);
  nodes.push_back(name + ":" + dims_text(one) + window_fields(spatial_rank, 1, 1, 0) + suffix);
  nodes.push_back(name + ":" + dims_text(one) + window_fields(spatial_rank, 3, 1, 1) + suffix);
  if (spatial_rank == 2) {
    nodes.push_back(name + ":1x3x9x112" + window_fields(2, 3, 2, 1) + suffix);
    nodes.push_back(name + ":1x3x9x111" + window_fields(2, 3, 2, 1) + suffix);
    nodes.push_back(name + ":2x3x28x28" + window_fields(2, 3, 1, 1) + suffix);
    nodes.push_back(name + ":1x5x56x56" + window_fields(2, 2, 2, 0) + suffix);
  }
  return nodes;
}

PreparedNode::PreparedNode(const TuningNode& node) : node_(node) {
  HostTensor X(node.spec.type, node.spec.shape);
  onnxpool_test::Random random(1);
  if (node.spec.op == PoolOp::kMaxPool || node.spec.op == PoolOp::kGlobalMaxPool) {
    onnxpool_test::fill_with_ties(random, &X, 0.0);
  } else {
    const bool lp = node.spec.op == PoolOp::kLpPool || node.spec.op == PoolOp::kGlobalLpPool;
    onnxpool_test::fill_for_sum_pool(random, &X, lp ? onnxpool_test::SumPool::kLp : onnxpool_test::SumPool::kAverage);
  }
  x_ = onnxpool_bench::AlignedBuffer<uint8_t>(X.byte_size(), 0);
  std::memcpy(x_.data(), X.data(), X.byte_size());
  const size_t outputs = static_cast<size_t>(onnxpool_test::element_count(node.spec.output_shape));
  y_ = onnxpool_bench::AlignedBuffer<uint8_t>(outputs * onnxpool::element_size(node.spec.type), 0);
  x_view_ = onnxpool::TensorView(x_.data(), node.spec.type, node.spec.shape);
  y_view_ = onnxpool::TensorView(y_.data(), node.spec.type, node.spec.output_shape);
  if (node.with_indices) {
    indices_ = onnxpool_bench::AlignedBuffer<uint8_t>(outputs * sizeof(int64_t), 0);
    indices_view_ = onnxpool::TensorView(indices_.data(), onnxpool::ElementType::kInt64, node.spec.output_shape);
  }
}

onnxpool::Status PreparedNode::run() {
  return onnxpool::pool(node_.spec.attributes, x_view_, y_view_, node_.with_indices ? &indices_view_ : nullptr);
}

}  // namespace onnxpool_tune
