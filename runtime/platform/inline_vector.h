// A vector that holds up to N values in place and moves to the heap only
// past N. A pooling call's lists (the geometry's axes and shapes, a kernel
// call's outputs, scalars and counting ranges) hold a few values each; kept
// in place, an ordinary call makes no heap allocation at all (docs/
// reliability.md, "Calls without heap allocation"), while a global pool over
// a tensor of any rank still works.
#pragma once

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <type_traits>
#include <vector>

namespace onnxpool::detail {

template <class T, size_t N>
class InlineVector {
  static_assert(std::is_trivially_copyable_v<T>, "values are copied as bytes between the two stores");

 public:
  InlineVector() = default;
  InlineVector(std::initializer_list<T> values) { append(values.begin(), values.end()); }
  explicit InlineVector(const std::vector<T>& values) { append(values.data(), values.data() + values.size()); }
  InlineVector& operator=(std::initializer_list<T> values) {
    clear();
    append(values.begin(), values.end());
    return *this;
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return heap_.empty() ? in_place_ : heap_.data(); }
  const T* data() const { return heap_.empty() ? in_place_ : heap_.data(); }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }
  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  T& back() { return data()[size_ - 1]; }
  const T& back() const { return data()[size_ - 1]; }

  void push_back(const T& value) {
    if (heap_.empty() && size_ < N) {
      in_place_[size_++] = value;
      return;
    }
    const T copy = value;  // `value` may lie in the store that moves
    move_to_heap(size_ + 1);
    heap_[size_++] = copy;
  }
  void resize(size_t n, const T& value = T()) {
    if (n > N) move_to_heap(n);
    for (size_t i = size_; i < n; ++i) data()[i] = value;
    size_ = n;
  }
  void assign(size_t n, const T& value) {
    clear();
    resize(n, value);
  }
  // Keeps the heap store, if any: a cleared list refilled past N reuses it.
  void clear() { size_ = 0; }

  std::vector<T> to_vector() const { return std::vector<T>(begin(), end()); }
  bool operator==(const std::vector<T>& other) const {
    if (other.size() != size_) return false;
    for (size_t i = 0; i < size_; ++i) {
      if (!(data()[i] == other[i])) return false;
    }
    return true;
  }
  bool operator!=(const std::vector<T>& other) const { return !(*this == other); }

 private:
  template <class It>
  void append(It first, It last) {
    for (; first != last; ++first) push_back(*first);
  }
  // Past N the values live in heap_, which is then never empty; its size is
  // the capacity, size_ the count.
  void move_to_heap(size_t at_least) {
    if (heap_.size() >= at_least) return;
    if (heap_.empty()) {
      heap_.assign(in_place_, in_place_ + size_);
    }
    heap_.resize(std::max(at_least, 2 * heap_.size()));
  }

  T in_place_[N] = {};
  std::vector<T> heap_;
  size_t size_ = 0;
};

}  // namespace onnxpool::detail
