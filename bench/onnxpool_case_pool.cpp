#include "onnxpool_case_pool.h"

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "aligned_buffer.h"

namespace onnxpool_bench {
namespace {

size_t count(const std::vector<int64_t>& shape) { return static_cast<size_t>(element_count(shape)); }

// float16 bits of a value in [-1, 1): sign, then exponent and mantissa cut
// from float32's (values under 2^-14 become zero; data only, not arithmetic).
uint16_t float16_bits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  const uint32_t sign = (bits >> 16) & 0x8000u;
  const int exponent = static_cast<int>((bits >> 23) & 0xff) - 127 + 15;
  if (exponent <= 0) return static_cast<uint16_t>(sign);
  return static_cast<uint16_t>(sign | (static_cast<uint32_t>(exponent) << 10) | ((bits >> 13) & 0x3ff));
}

void fill(onnxpool::ElementType type, size_t count, unsigned char* bytes) {
  std::mt19937 random(12345);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (size_t i = 0; i < count; ++i) {
    const float value = uniform(random);
    switch (type) {
      case onnxpool::ElementType::kFloat32: std::memcpy(bytes + 4 * i, &value, 4); break;
      case onnxpool::ElementType::kFloat64: {
        const double wide = value;
        std::memcpy(bytes + 8 * i, &wide, 8);
        break;
      }
      case onnxpool::ElementType::kFloat16: {
        const uint16_t half = float16_bits(value);
        std::memcpy(bytes + 2 * i, &half, 2);
        break;
      }
      case onnxpool::ElementType::kBFloat16: {
        uint32_t bits;
        std::memcpy(&bits, &value, 4);
        const uint16_t top = static_cast<uint16_t>(bits >> 16);
        std::memcpy(bytes + 2 * i, &top, 2);
        break;
      }
      default: bytes[i] = static_cast<unsigned char>(random()); break;
    }
  }
}

class OnnxpoolCasePool final : public PoolRunner {
 public:
  OnnxpoolCasePool(const CaseSpec& spec, bool with_indices, int threads, CaseCall call)
      : spec_(spec), with_indices_(with_indices) {
    const onnxpool::Status status = onnxpool::set_num_threads(threads);
    if (!status) {
      fail("onnxpool set_num_threads: " + status.message());
      return;
    }
    const size_t width = onnxpool::element_size(spec.type);
    input_ = AlignedBuffer<unsigned char>(count(spec.shape) * width, 0);
    fill(spec.type, count(spec.shape), input_.data());
    output_ = AlignedBuffer<unsigned char>(count(spec.output_shape) * width, 0);
    x_ = onnxpool::TensorView(input_.data(), spec.type, spec.shape);
    y_ = onnxpool::TensorView(output_.data(), spec.type, spec.output_shape);
    if (with_indices_) {
      indices_ = AlignedBuffer<int64_t>(count(spec.output_shape), 0);
      indices_view_ = onnxpool::TensorView(indices_.data(), onnxpool::ElementType::kInt64, spec.output_shape);
    }
    if (call == CaseCall::kCreated) {
      const onnxpool::Status created = onnxpool::PoolOperator::create(spec.attributes, spec.shape, spec.type, &op_);
      if (!created) fail("onnxpool PoolOperator::create: " + created.message());
    }
  }

  bool run() override {
    const onnxpool::TensorView* indices = with_indices_ ? &indices_view_ : nullptr;
    const onnxpool::Status status = op_.created() ? op_.run(x_, y_, indices) : onnxpool::pool(spec_.attributes, x_, y_, indices);
    if (!status) return fail(std::string(op_.created() ? "onnxpool PoolOperator::run: " : "onnxpool pool: ") +
                             status.message());
    return true;
  }

  std::vector<float> output_nchw() const override { return {}; }

  std::string label() const override {
    return std::string(onnxpool::cpu_variant_name(onnxpool::active_cpu_variant())) + " " +
           case_type_name(spec_.type);
  }

 private:
  const CaseSpec& spec_;
  bool with_indices_;
  AlignedBuffer<unsigned char> input_;
  AlignedBuffer<unsigned char> output_;
  AlignedBuffer<int64_t> indices_;
  onnxpool::TensorView x_;
  onnxpool::TensorView y_;
  onnxpool::TensorView indices_view_;
  onnxpool::PoolOperator op_;  // created only for CaseCall::kCreated
};

}  // namespace

std::unique_ptr<PoolRunner> make_onnxpool_case_pool(const CaseSpec& spec, bool with_indices, int threads,
                                                    CaseCall call) {
  return std::make_unique<OnnxpoolCasePool>(spec, with_indices, threads, call);
}

}  // namespace onnxpool_bench
