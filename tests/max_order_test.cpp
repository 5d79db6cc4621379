// The order every max kernel ranks floats by (README: NaN of any sign or
// payload wins, +0 > -0; generators/max_keys.h and float_maximum.h), checked
// bit for bit where the reference cannot: it treats -0 and +0 as equal.
// Every pair (a, b) of a ladder of values, NaNs of both signs and several
// payloads among them, shares one window, for each kernel family the runtime
// picks between (separable rows, separable columns, halving 2x2, flat plane,
// global), on every CPU variant. The expected result is written from the
// ladder's ranks, not from another implementation.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "onnxpool/pooling.h"
#include "support/batch_outcome.h"
#include "support/cpu_variants.h"
#include "support/maxpool_check.h"
#include "support/pool_cases.h"
#include "support/pool_check.h"

namespace onnxpool_test {
namespace {

using Ints = std::vector<int64_t>;

struct FloatFormat {
  ElementType type;
  int exponent_bits, mantissa_bits;
  int bits() const { return 1 + exponent_bits + mantissa_bits; }
};

const FloatFormat kFormats[] = {{ElementType::kFloat32, 8, 23},
                                {ElementType::kFloat16, 5, 10},
                                {ElementType::kBFloat16, 8, 7},
                                {ElementType::kFloat64, 11, 52}};

// One value of the ladder: its bits, and its rank (NaNs have none).
struct Rung {
  uint64_t bits;
  int rank;  // -1: NaN
  std::string name;
};

std::vector<Rung> ladder(const FloatFormat& f) {
  const int m = f.mantissa_bits;
  const uint64_t sign = uint64_t(1) << (f.bits() - 1);
  const uint64_t exponent_ones = ((uint64_t(1) << f.exponent_bits) - 1) << m;
  const uint64_t one = ((uint64_t(1) << (f.exponent_bits - 1)) - 1) << m;
  const uint64_t quiet = uint64_t(1) << (m - 1);
  const uint64_t payload_ones = quiet - 1;
  std::vector<Rung> rungs = {
      {sign | exponent_ones, 0, "-inf"},     {sign | (exponent_ones - 1), 1, "-max"},
      {sign | one, 2, "-1"},                 {sign | 1, 3, "-min_subnormal"},
      {sign, 4, "-0"},                       {0, 5, "+0"},
      {1, 6, "+min_subnormal"},              {one, 7, "+1"},
      {exponent_ones - 1, 8, "+max"},        {exponent_ones, 9, "+inf"},
  };
  for (uint64_t s : {uint64_t(0), sign}) {
    const std::string prefix = s ? "-" : "+";
    rungs.push_back({s | exponent_ones | quiet, -1, prefix + "qNaN"});
    rungs.push_back({s | exponent_ones | quiet | payload_ones, -1, prefix + "qNaN(payload)"});
    rungs.push_back({s | exponent_ones | 1, -1, prefix + "sNaN"});
  }
  return rungs;
}

// Every ordered pair, a == b included.
struct Pair {
  const Rung* a;
  const Rung* b;
};

std::vector<Pair> all_pairs(const std::vector<Rung>& rungs) {
  std::vector<Pair> pairs;
  for (const Rung& a : rungs) {
    for (const Rung& b : rungs) pairs.push_back({&a, &b});
  }
  return pairs;
}

// Whether b wins over a, where a comes first in scan order: a NaN wins and
// the first NaN stays; otherwise the strictly higher rank.
bool second_wins(const Pair& p) {
  if (p.a->rank < 0) return false;
  if (p.b->rank < 0) return true;
  return p.b->rank > p.a->rank;
}

// "" when Y[index] is max(a, b): NaN for a NaN pair, else the winner's exact bits.
std::string check_value(const HostTensor& Y, int64_t index, const Pair& p) {
  const Rung& winner = second_wins(p) ? *p.b : *p.a;
  const bool ok = winner.rank < 0 ? Y.is_nan(index) : Y.bits(index) == winner.bits;
  if (ok) return "";
  char got[32];
  std::snprintf(got, sizeof got, "0x%llx", static_cast<unsigned long long>(Y.bits(index)));
  return "max(" + p.a->name + ", " + p.b->name + ") at output " + std::to_string(index) + " gave " + got +
         ", expected " + winner.name;
}

// A window shape: how the pairs are laid out and where each pair's a and b lie.
struct MaxWindowLayout {
  std::string name;
  PoolSpec spec;
  Ints shape;                                  // of X, for `pairs` pairs
  std::function<void(HostTensor*, int64_t, const Pair&)> place;  // writes pair k into X
  std::function<Ints(int64_t)> outputs_of;                       // the outputs pair k decides
  // Indices of pair k's a and b (-1: the layout has no Indices check).
  std::function<std::pair<int64_t, int64_t>(int64_t)> positions;
};

std::vector<MaxWindowLayout> layouts(int64_t pairs) {
  std::vector<MaxWindowLayout> all;
  // Along x: windows of 1 x 2, stride 2 (the separable kernels' window stage).
  all.push_back({"1x2 along x", window_spec({1, 2}, {1, 2}), {1, 1, 1, 2 * pairs},
                 [](HostTensor* X, int64_t k, const Pair& p) {
                   X->set_bits(2 * k, p.a->bits);
                   X->set_bits(2 * k + 1, p.b->bits);
                 },
                 [](int64_t k) { return Ints{k}; },
                 [](int64_t k) { return std::make_pair(2 * k, 2 * k + 1); }});
  // Along y: windows of 2 x 1 (the separable kernels' rows stage).
  all.push_back({"2x1 along y", window_spec({2, 1}, {2, 1}), {1, 1, 2, pairs},
                 [pairs](HostTensor* X, int64_t k, const Pair& p) {
                   X->set_bits(k, p.a->bits);
                   X->set_bits(pairs + k, p.b->bits);
                 },
                 [](int64_t k) { return Ints{k}; },
                 [pairs](int64_t k) { return std::make_pair(k, pairs + k); }});
  // 2x2 stride 2 (the halving kernels): rows (a, b) over (a, a).
  all.push_back({"2x2 stride 2", window_spec({2, 2}, {2, 2}), {1, 1, 2, 2 * pairs},
                 [pairs](HostTensor* X, int64_t k, const Pair& p) {
                   X->set_bits(2 * k, p.a->bits);
                   X->set_bits(2 * k + 1, p.b->bits);
                   X->set_bits(2 * pairs + 2 * k, p.a->bits);
                   X->set_bits(2 * pairs + 2 * k + 1, p.a->bits);
                 },
                 [](int64_t k) { return Ints{k}; },
                 [](int64_t k) { return std::make_pair(2 * k, 2 * k + 1); }});
  // 3x3 planes, 3x3 stride 1 pad 1 (the flat-plane kernels without Indices):
  // a everywhere but b at the centre, which every window holds.
  all.push_back({"3x3 planes", window_spec({3, 3}, {1, 1}, {1, 1, 1, 1}), {1, pairs, 3, 3},
                 [](HostTensor* X, int64_t k, const Pair& p) {
                   for (int64_t i = 0; i < 9; ++i) X->set_bits(9 * k + i, i == 4 ? p.b->bits : p.a->bits);
                 },
                 [](int64_t k) {
                   Ints outputs;
                   for (int64_t i = 0; i < 9; ++i) outputs.push_back(9 * k + i);
                   return outputs;
                 },
                 [](int64_t) { return std::make_pair(int64_t{-1}, int64_t{-1}); }});
  return all;
}

TEST(MaxOrder, EveryPairOfTheLadderInEveryMaxPoolWindowKind) {
  BatchOutcome outcome;
  const int variants = on_each_cpu_variant([&](onnxpool::CpuVariant variant) {
    for (const FloatFormat& format : kFormats) {
      const std::vector<Rung> rungs = ladder(format);
      const std::vector<Pair> pairs = all_pairs(rungs);
      const int64_t count = static_cast<int64_t>(pairs.size());
      for (const MaxWindowLayout& layout : layouts(count)) {
        for (bool with_indices : {false, true}) {
          HostTensor X(format.type, layout.shape);
          for (int64_t k = 0; k < count; ++k) layout.place(&X, k, pairs[static_cast<size_t>(k)]);
          MaxPoolResult r;
          const onnxpool::Status status = library_max_pool(make_max_pool_case(layout.spec, X, with_indices), &r);
          std::string failure = status.is_ok() ? "" : "refused: " + status.message();
          for (int64_t k = 0; k < count && failure.empty(); ++k) {
            const Pair& p = pairs[static_cast<size_t>(k)];
            for (int64_t out : layout.outputs_of(k)) {
              failure = check_value(r.Y, out, p);
              if (!failure.empty()) break;
            }
            const auto [a_at, b_at] = layout.positions(k);
            if (failure.empty() && with_indices && a_at >= 0) {
              const int64_t expected = second_wins(p) ? b_at : a_at;
              const int64_t got = r.Indices.get_int64(layout.outputs_of(k)[0]);
              if (got != expected) {
                failure = "Indices of (" + p.a->name + ", " + p.b->name + "): " + std::to_string(got) +
                          ", expected " + std::to_string(expected);
              }
            }
          }
          record_variant_case(&outcome, variant,
                              layout.name + " " + std::string(type_label(format.type)) + (with_indices ? " with Indices" : "") +
                                  ": " + failure,
                              failure.empty() ? testing::AssertionSuccess() : testing::AssertionFailure());
        }
      }
    }
  });
  EXPECT_EQ(outcome.cases_run, variants * 4 * 4 * 2);
  EXPECT_TRUE(outcome.failures.empty()) << outcome.report();
}

// GlobalMaxPool: plane k all a with one b, on planes of the sizes the
// schedules treat apart (global_cpu_schedule.cpp: 49 and 196 unrolled; a
// tail shorter than a vector; one element past a vector), in whole vectors
// of planes and not.
TEST(MaxOrder, EveryPairOfTheLadderInGlobalMaxPool) {
  BatchOutcome outcome;
  const Ints plane_sizes{2, 9, 17, 49, 196};
  const int variants = on_each_cpu_variant([&](onnxpool::CpuVariant variant) {
    for (const FloatFormat& format : kFormats) {
      const std::vector<Rung> rungs = ladder(format);
      const std::vector<Pair> pairs = all_pairs(rungs);
      for (int64_t size : plane_sizes) {
        for (int64_t planes : {static_cast<int64_t>(pairs.size()), static_cast<int64_t>(pairs.size()) - 3}) {
          HostTensor X(format.type, {1, planes, size});
          for (int64_t k = 0; k < planes; ++k) {
            const Pair& p = pairs[static_cast<size_t>(k)];
            for (int64_t i = 0; i < size; ++i) X.set_bits(k * size + i, p.a->bits);
            X.set_bits(k * size + (k * 7) % size, p.b->bits);
          }
          HostTensor Y;
          const onnxpool::Status status =
              library_pool(make_pool_case(onnxpool::PoolOp::kGlobalMaxPool, p_only(2), X), &Y);
          std::string failure = status.is_ok() ? "" : "refused: " + status.message();
          for (int64_t k = 0; k < planes && failure.empty(); ++k) {
            failure = check_value(Y, k, pairs[static_cast<size_t>(k)]);
          }
          record_variant_case(&outcome, variant,
                              std::string(type_label(format.type)) + " " + std::to_string(planes) + " planes of " +
                                  std::to_string(size) + ": " + failure,
                              failure.empty() ? testing::AssertionSuccess() : testing::AssertionFailure());
        }
      }
    }
  });
  EXPECT_EQ(outcome.cases_run, variants * 4 * static_cast<int>(plane_sizes.size()) * 2);
  EXPECT_TRUE(outcome.failures.empty()) << outcome.report();
}

}  // namespace
}  // namespace onnxpool_test
