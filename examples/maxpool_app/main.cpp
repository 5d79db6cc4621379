// Pools a 1x1x4x4 image with a 2x2/s2 MaxPool, with Indices, and checks the
// result: the smallest useful program against an installed onnxpool.
#include <onnxpool/onnxpool.h>

#include <cstdio>
#include <vector>

int main() {
  onnxpool::Attributes raw;
  raw.set("kernel_shape", std::vector<int64_t>{2, 2}).set("strides", std::vector<int64_t>{2, 2});
  onnxpool::PoolAttributes attributes;
  onnxpool::Status status = onnxpool::PoolAttributes::parse(onnxpool::PoolOp::kMaxPool, raw, &attributes);
  if (!status) {
    std::fprintf(stderr, "%s\n", status.message().c_str());
    return 1;
  }
  const std::vector<float> x = {1, 2, 3, 4,  5, 6, 7, 8,  9, 10, 11, 12,  13, 14, 15, 16};
  std::vector<int64_t> y_shape;
  status = onnxpool::infer_output_shape(attributes, {1, 1, 4, 4}, &y_shape);
  if (!status) {
    std::fprintf(stderr, "%s\n", status.message().c_str());
    return 1;
  }
  std::vector<float> y(4);
  std::vector<int64_t> indices(4);
  onnxpool::TensorView X(x.data(), onnxpool::ElementType::kFloat32, {1, 1, 4, 4});
  onnxpool::TensorView Y(y.data(), onnxpool::ElementType::kFloat32, y_shape);
  onnxpool::TensorView I(indices.data(), onnxpool::ElementType::kInt64, y_shape);
  status = onnxpool::max_pool(attributes, X, Y, &I);
  if (!status) {
    std::fprintf(stderr, "%s\n", status.message().c_str());
    return 1;
  }
  const std::vector<float> want_y = {6, 8, 14, 16};
  const std::vector<int64_t> want_indices = {5, 7, 13, 15};
  std::printf("Y = %g %g %g %g, Indices = %lld %lld %lld %lld\n", y[0], y[1], y[2], y[3],
              (long long)indices[0], (long long)indices[1], (long long)indices[2], (long long)indices[3]);
  return y == want_y && indices == want_indices ? 0 : 1;
}
