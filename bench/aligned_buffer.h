// Owning, 64-byte-aligned storage for benchmark tensors.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>

namespace onnxpool_bench {

// 64 bytes is a cache line and one AVX-512 vector: every implementation gets
// the same alignment, so none pays for split loads that another does not.
// The constructor writes every element, so page faults happen before timing.
template <typename T>
class AlignedBuffer {
 public:
  static constexpr size_t kAlignment = 64;

  AlignedBuffer() = default;
  AlignedBuffer(size_t count, T fill) : size_(count) {
    const size_t bytes = ((count * sizeof(T) + kAlignment - 1) / kAlignment) * kAlignment;
    data_.reset(static_cast<T*>(std::aligned_alloc(kAlignment, bytes == 0 ? kAlignment : bytes)));
    if (!data_) throw std::bad_alloc();
    for (size_t i = 0; i < count; ++i) data_[i] = fill;
  }

  T* data() { return data_.get(); }
  const T* data() const { return data_.get(); }
  size_t size() const { return size_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }

 private:
  struct Free {
    void operator()(T* p) const { std::free(p); }
  };
  std::unique_ptr<T[], Free> data_;
  size_t size_ = 0;
};

}  // namespace onnxpool_bench
