#include "reference_cache.h"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <vector>

#include <unistd.h>

namespace onnxpool_tune {
namespace {

using onnxpool_test::HostTensor;

// A tensor as its type, rank, dimensions and raw bytes.
void write_tensor(std::ofstream& out, const HostTensor& t) {
  const int32_t type = static_cast<int32_t>(t.type());
  const uint32_t rank = static_cast<uint32_t>(t.shape().size());
  out.write(reinterpret_cast<const char*>(&type), sizeof type);
  out.write(reinterpret_cast<const char*>(&rank), sizeof rank);
  out.write(reinterpret_cast<const char*>(t.shape().data()), static_cast<std::streamsize>(rank * sizeof(int64_t)));
  out.write(static_cast<const char*>(t.data()), static_cast<std::streamsize>(t.byte_size()));
}

bool read_tensor(std::ifstream& in, HostTensor* t) {
  int32_t type = 0;
  uint32_t rank = 0;
  if (!in.read(reinterpret_cast<char*>(&type), sizeof type) || !in.read(reinterpret_cast<char*>(&rank), sizeof rank) ||
      rank > 8) {
    return false;
  }
  std::vector<int64_t> shape(rank);
  if (!in.read(reinterpret_cast<char*>(shape.data()), static_cast<std::streamsize>(rank * sizeof(int64_t)))) {
    return false;
  }
  for (int64_t d : shape) {
    if (d < 0) return false;
  }
  *t = HostTensor(static_cast<onnxpool_test::ElementType>(type), shape);
  return static_cast<bool>(in.read(static_cast<char*>(t->data()), static_cast<std::streamsize>(t->byte_size())));
}

// Written to a temporary file and renamed, so a reader never sees half of one.
template <typename Write>
void store_file(const std::string& path, Write write) {
  std::error_code error;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), error);
  const std::string tmp = path + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary);
    write(out);
    if (!out) return;
  }
  std::filesystem::rename(tmp, path, error);
}

}  // namespace

std::string ReferenceCache::path(const std::string& key) const {
  char name[32];
  std::snprintf(name, sizeof name, "%016zx", std::hash<std::string>{}(key));
  return dir_ + "/" + name + ".ref";
}

bool ReferenceCache::load(const std::string& key, onnxpool_test::MaxPoolResult* out) const {
  if (!enabled()) return false;
  std::ifstream in(path(key), std::ios::binary);
  std::string stored_key(key.size(), '\0');
  return in && in.read(stored_key.data(), static_cast<std::streamsize>(key.size())) && stored_key == key &&
         read_tensor(in, &out->Y) && read_tensor(in, &out->Indices);
}

bool ReferenceCache::load(const std::string& key, onnxpool_test::PoolExpectation* out) const {
  if (!enabled()) return false;
  std::ifstream in(path(key), std::ios::binary);
  std::string stored_key(key.size(), '\0');
  char exact = 0;
  return in && in.read(stored_key.data(), static_cast<std::streamsize>(key.size())) && stored_key == key &&
         in.read(&exact, 1) && (out->exact = exact != 0, true) && read_tensor(in, &out->values) &&
         read_tensor(in, &out->allowed);
}

void ReferenceCache::store(const std::string& key, const onnxpool_test::MaxPoolResult& result) const {
  if (!enabled()) return;
  store_file(path(key), [&](std::ofstream& out) {
    out.write(key.data(), static_cast<std::streamsize>(key.size()));
    write_tensor(out, result.Y);
    write_tensor(out, result.Indices);
  });
}

void ReferenceCache::store(const std::string& key, const onnxpool_test::PoolExpectation& expectation) const {
  if (!enabled()) return;
  store_file(path(key), [&](std::ofstream& out) {
    out.write(key.data(), static_cast<std::streamsize>(key.size()));
    const char exact = expectation.exact ? 1 : 0;
    out.write(&exact, 1);
    write_tensor(out, expectation.values);
    write_tensor(out, expectation.allowed);
  });
}

}  // namespace onnxpool_tune
