// Embeds onnxpool the way an inference runtime does: each node is created
// once (PoolOperator) and run many times, on the application's own thread
// pool (use_thread_pool). Built against a build selected for float32 2D
// MaxPool and GlobalAveragePool (README, "Selected builds"), it also shows
// what a node outside the selection gets: kUnsupported, naming the options.
#include <onnxpool/onnxpool.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <limits>
#include <mutex>
#include <thread>
#include <vector>

namespace {

// The application's pool: workers that take the tasks of the current loop
// from a shared counter, the calling thread among them; loops from several
// threads take turns.
class AppThreadPool {
 public:
  explicit AppThreadPool(int workers) {
    for (int i = 0; i < workers; ++i) workers_.emplace_back([this] { work(); });
  }
  ~AppThreadPool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : workers_) t.join();
  }
  int threads() const { return static_cast<int>(workers_.size()) + 1; }

  static void parallel_for(void* self, onnxpool::ParallelTask task, void* context, size_t count) {
    static_cast<AppThreadPool*>(self)->run(task, context, count);
  }

 private:
  struct Loop {
    onnxpool::ParallelTask task;
    void* context;
    size_t count;
    std::atomic<size_t> next{0};
    size_t done = 0;  // under mutex_
    int helpers = 0;  // workers inside drain(), under mutex_
  };

  void run(onnxpool::ParallelTask task, void* context, size_t count) {
    std::lock_guard<std::mutex> turn(turn_mutex_);
    Loop loop{task, context, count};
    {
      std::lock_guard<std::mutex> lock(mutex_);
      current_ = &loop;
    }
    wake_.notify_all();
    drain(loop);
    // No worker may touch the loop once this returns.
    std::unique_lock<std::mutex> lock(mutex_);
    finished_.wait(lock, [&] { return loop.done == loop.count && loop.helpers == 0; });
    current_ = nullptr;
  }
  void drain(Loop& loop) {
    size_t ran = 0;
    for (size_t i = loop.next.fetch_add(1); i < loop.count; i = loop.next.fetch_add(1), ++ran) {
      loop.task(loop.context, i);
    }
    std::lock_guard<std::mutex> lock(mutex_);
    loop.done += ran;
    finished_.notify_all();
  }
  void work() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return stop_ || (current_ != nullptr && current_->next.load() < current_->count); });
      if (stop_) return;
      Loop* loop = current_;
      ++loop->helpers;
      lock.unlock();
      drain(*loop);
      lock.lock();
      --loop->helpers;
      finished_.notify_all();
    }
  }

  std::vector<std::thread> workers_;
  std::mutex turn_mutex_, mutex_;
  std::condition_variable wake_, finished_;
  Loop* current_ = nullptr;  // under mutex_
  bool stop_ = false;
};

bool report(const onnxpool::Status& status, const char* what) {
  if (status) return true;
  std::fprintf(stderr, "%s: %s\n", what, status.message().c_str());
  return false;
}

onnxpool::PoolAttributes attributes_of(onnxpool::PoolOp op, const onnxpool::Attributes& raw) {
  onnxpool::PoolAttributes attributes;
  report(onnxpool::PoolAttributes::parse(op, raw, &attributes), "parse");
  return attributes;
}

}  // namespace

int main() {
  AppThreadPool pool(1);
  if (!report(onnxpool::use_thread_pool({AppThreadPool::parallel_for, &pool, pool.threads()}), "use_thread_pool")) {
    return 1;
  }
  // A ResNet stem's MaxPool and a squeeze-and-excitation GlobalAveragePool.
  onnxpool::Attributes stem;
  stem.set("kernel_shape", std::vector<int64_t>{3, 3})
      .set("strides", std::vector<int64_t>{2, 2})
      .set("pads", std::vector<int64_t>{1, 1, 1, 1});
  const std::vector<int64_t> x_shape = {1, 64, 56, 56}, y_shape = {1, 64, 28, 28}, mean_shape = {1, 64, 1, 1};
  onnxpool::PoolOperator max_pool, mean;
  if (!report(onnxpool::PoolOperator::create(attributes_of(onnxpool::PoolOp::kMaxPool, stem), x_shape,
                                             onnxpool::ElementType::kFloat32, &max_pool), "create MaxPool") ||
      !report(onnxpool::PoolOperator::create(attributes_of(onnxpool::PoolOp::kGlobalAveragePool, {}), y_shape,
                                             onnxpool::ElementType::kFloat32, &mean), "create GlobalAveragePool")) {
    return 1;
  }
  std::vector<float> x(64 * 56 * 56), y(64 * 28 * 28), m(64);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((i * 7919) % 1000) - 500.0f;
  const onnxpool::TensorView X(x.data(), onnxpool::ElementType::kFloat32, x_shape);
  const onnxpool::TensorView Y(y.data(), onnxpool::ElementType::kFloat32, y_shape);
  const onnxpool::TensorView M(m.data(), onnxpool::ElementType::kFloat32, mean_shape);
  for (int inference = 0; inference < 10; ++inference) {
    if (!report(max_pool.run(X, Y, nullptr), "MaxPool") || !report(mean.run(Y, M, nullptr), "GlobalAveragePool")) {
      return 1;
    }
  }
  // Plane 5's results, checked by plain loops.
  bool right = true;
  double sum = 0;
  for (int oy = 0; oy < 28; ++oy) {
    for (int ox = 0; ox < 28; ++ox) {
      float want = -std::numeric_limits<float>::infinity();
      for (int iy = std::max(0, 2 * oy - 1); iy <= std::min(55, 2 * oy + 1); ++iy) {
        for (int ix = std::max(0, 2 * ox - 1); ix <= std::min(55, 2 * ox + 1); ++ix) {
          want = std::max(want, x[(5 * 56 + iy) * 56 + ix]);
        }
      }
      right = right && y[(5 * 28 + oy) * 28 + ox] == want;
      sum += want;
    }
  }
  const double want_mean = sum / (28 * 28);
  right = right && std::abs(m[5] - want_mean) <= 1e-4 * std::max(1.0, std::abs(want_mean));
  std::printf("%s on %d threads of the application's pool: Y[5] and its mean %s\n", max_pool.describe().c_str(),
              pool.threads(), right ? "match plain loops" : "DIFFER from plain loops");
  // A node this build may not have: a float16 MaxPool.
  onnxpool::PoolOperator half;
  const onnxpool::Status half_status = onnxpool::PoolOperator::create(
      attributes_of(onnxpool::PoolOp::kMaxPool, stem), x_shape, onnxpool::ElementType::kFloat16, &half);
  std::printf("float16 MaxPool: %s\n", half_status ? "created" : half_status.message().c_str());
  return right ? 0 : 1;
}
