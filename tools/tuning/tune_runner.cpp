// onnxpool_tune_runner: the measuring half of tools/tune.sh. It links the
// library and points one kernel's slot at candidate builds of that kernel
// (shared objects tools/tune.py generated), then
//   route  says which kernels (name@target) each node runs,
//   check  runs one candidate on the given nodes and on tiny ones against
//          the tests' reference,
//   time   times several candidates on the given nodes, interleaved: every
//          round runs each candidate in turn (rotating who goes first), so
//          a noisy neighbour slows them all alike,
//   count  runs several candidates on the given nodes at one thread, each
//          call between two markers that qemu_instruction_count.cpp (a qemu
//          plugin) counts the guest instructions of: the cost of an ARM64
//          candidate on a machine without ARM hardware.
// Output: one JSON object per line on stdout; errors on stderr, exit 2.
#include <dlfcn.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <HalideRuntime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "kernel_slots.h"
#include "onnxpool/onnxpool.h"
#include "dispatch/runtime_knobs.h"
#include "tuning_nodes.h"

namespace onnxpool_tune {
namespace {

constexpr char kUsage[] =
    "usage: onnxpool_tune_runner knobs\n"
    "       onnxpool_tune_runner route [--variant VARIANT] --node CASE...\n"
    "       onnxpool_tune_runner check --kernel NAME --variant VARIANT [--candidate SO:FUNCTION|runtime:KNOBS]\n"
    "                                  [--node CASE]... [--tiny] [--seed N] [--reference-cache DIR]\n"
    "       onnxpool_tune_runner time [--kernel NAME] --variant VARIANT --candidate 'LABEL|WHAT'... --node CASE...\n"
    "                                 [--rounds N] [--sample-ms MS] [--threads N]\n"
    "       onnxpool_tune_runner count --kernel NAME --variant VARIANT --candidate 'LABEL|WHAT'...\n"
    "                                  --node CASE... [--calls N]   (under qemu with the counting plugin)\n"
    "  WHAT     SO:FUNCTION (a build of the kernel), builtin (the library's), or runtime:KNOBS\n"
    "  KNOBS    run-time knobs name=value,... (runtime/dispatch/runtime_knobs.h) on the library's kernels\n"
    "  CASE     a case string (onnxpool_bench --help), ':indices' at the end for MaxPool's Indices\n"
    "  VARIANT  avx512_skylake, avx2_fma_f16c or baseline (onnxpool::cpu_variant_name): that CPU target;\n"
    "           opencl or cuda: that GPU backend (set_backend), on host tensors\n";

struct Options {
  std::string mode, kernel, variant, reference_cache;
  std::vector<std::string> candidates, nodes;
  bool tiny = false;
  uint64_t seed = 1;
  int rounds = 11, threads = 1, calls = 1;
  double sample_ms = 5.0;
};

[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "onnxpool_tune_runner: %s\n%s", message.c_str(), kUsage);
  std::exit(2);
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

Options parse(int argc, char** argv) {
  if (argc < 2) fail("no mode");
  Options o;
  o.mode = argv[1];
  if (o.mode != "knobs" && o.mode != "route" && o.mode != "check" && o.mode != "time" &&
      o.mode != "count") {
    fail("unknown mode '" + o.mode + "'");
  }
  for (int i = 2; i < argc; ++i) {
    const std::string flag = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) fail(flag + " needs a value");
      return argv[++i];
    };
    if (flag == "--kernel") o.kernel = value();
    else if (flag == "--variant") o.variant = value();
    else if (flag == "--candidate") o.candidates.push_back(value());
    else if (flag == "--node") o.nodes.push_back(value());
    else if (flag == "--tiny") o.tiny = true;
    else if (flag == "--seed") o.seed = std::strtoull(value().c_str(), nullptr, 10);
    else if (flag == "--reference-cache") o.reference_cache = value();
    else if (flag == "--rounds") o.rounds = std::atoi(value().c_str());
    else if (flag == "--threads") o.threads = std::atoi(value().c_str());
    else if (flag == "--calls") o.calls = std::atoi(value().c_str());
    else if (flag == "--sample-ms") o.sample_ms = std::atof(value().c_str());
    else fail("unknown flag '" + flag + "'");
  }
  if ((o.mode == "check" || o.mode == "time" || o.mode == "count") && o.variant.empty()) fail(o.mode + " needs --variant");
  if (o.rounds < 1 || o.threads < 0 || o.sample_ms <= 0 || o.calls < 1) {
    fail("--rounds, --threads, --calls or --sample-ms out of range");
  }
  return o;
}

onnxpool::CpuVariant variant_of(const std::string& name) {
  for (onnxpool::CpuVariant v : {onnxpool::CpuVariant::kAvx512, onnxpool::CpuVariant::kAvx2,
                                 onnxpool::CpuVariant::kBaseline}) {
    if (name == onnxpool::cpu_variant_name(v)) return v;
  }
  fail("unknown variant '" + name + "'");
}

std::vector<TuningNode> parse_nodes(const std::vector<std::string>& texts) {
  std::vector<TuningNode> nodes;
  for (const std::string& text : texts) {
    TuningNode node;
    std::string error;
    if (!parse_node(text, &node, &error)) fail("bad node '" + text + "': " + error);
    nodes.push_back(node);
  }
  return nodes;
}

// Loads SO:FUNCTION (Halide's <FUNCTION>_argv and <FUNCTION>_metadata) and
// checks that it takes the arguments the library's build of the kernel
// takes, so the runtime fills them alike.
KernelFunctions load_candidate(const std::string& spec, const Slot& slot) {
  const size_t colon = spec.rfind(':');
  if (colon == std::string::npos) fail("candidate '" + spec + "' is not SO:FUNCTION");
  const std::string path = spec.substr(0, colon), function = spec.substr(colon + 1);
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) fail("cannot load " + path + ": " + dlerror());
  KernelFunctions f;
  f.run = reinterpret_cast<int (*)(void**)>(dlsym(handle, (function + "_argv").c_str()));
  f.metadata = reinterpret_cast<const halide_filter_metadata_t* (*)()>(dlsym(handle, (function + "_metadata").c_str()));
  if (f.run == nullptr || f.metadata == nullptr) fail(path + " has no Halide function " + function);
  const halide_filter_metadata_t* theirs = f.metadata();
  const halide_filter_metadata_t* ours = onnxpool::detail::kernel_at(slot.kernel).metadata[slot.target]();
  bool same = theirs->num_arguments == ours->num_arguments;
  for (int a = 0; same && a < ours->num_arguments; ++a) {
    same = std::strcmp(theirs->arguments[a].name, ours->arguments[a].name) == 0 &&
           theirs->arguments[a].kind == ours->arguments[a].kind &&
           theirs->arguments[a].dimensions == ours->arguments[a].dimensions &&
           theirs->arguments[a].type == ours->arguments[a].type;
  }
  if (!same) fail(path + ": " + function + " takes other arguments than the library's " + ours->name);
  return f;
}

// The knobs each compiled kernel was generated with, as the build recorded
// them in the kernel table (tools/tuning/tuned_kernels_test.py compares them
// with the tuning tables).
int knobs() {
  for (size_t k = 0; k < onnxpool::detail::kernel_count(); ++k) {
    const onnxpool::detail::KernelEntry& entry = onnxpool::detail::kernel_at(k);
    for (size_t t = 0; t < onnxpool::detail::target_count(); ++t) {
      if (entry.run[t] == nullptr) continue;
      std::printf("{\"kernel\": %s, \"target\": %zu, \"knobs\": %s}\n", json_string(entry.name).c_str(), t,
                  json_string(entry.knobs[t]).c_str());
    }
  }
  return 0;
}

// The target that runs `variant`'s code: a CPU target, or a GPU backend's.
size_t target_of(onnxpool::Backend backend, onnxpool::CpuVariant variant) {
  for (size_t t = 0; t < onnxpool::detail::target_count(); ++t) {
    const onnxpool::detail::TargetInfo& info = onnxpool::detail::target_info(t);
    if (info.backend == backend && (backend != onnxpool::Backend::kCpu || info.cpu_variant == variant)) return t;
  }
  fail(std::string("this library has no ") +
       (backend == onnxpool::Backend::kCpu ? onnxpool::cpu_variant_name(variant) : onnxpool::backend_name(backend)) +
       " target");
}

// The GPU backend a variant names, or kCpu.
onnxpool::Backend backend_of(const std::string& variant) {
  if (variant == "opencl") return onnxpool::Backend::kOpenCL;
  if (variant == "cuda") return onnxpool::Backend::kCuda;
  return onnxpool::Backend::kCpu;
}

constexpr char kRuntimePrefix[] = "runtime:";

bool is_runtime_spec(const std::string& spec) { return spec.rfind(kRuntimePrefix, 0) == 0; }

// runtime:name=value,... as the hand defaults with those knobs set.
onnxpool::detail::RuntimeKnobs parse_runtime_knobs(const std::string& spec) {
  onnxpool::detail::RuntimeKnobs knobs;
  std::string rest = spec.substr(sizeof kRuntimePrefix - 1);
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    const std::string item = rest.substr(0, comma);
    rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
    const size_t eq = item.find('=');
    char* end = nullptr;
    const long long value = eq == std::string::npos ? 0 : std::strtoll(item.c_str() + eq + 1, &end, 10);
    if (eq == std::string::npos || end == nullptr || *end != '\0' ||
        !onnxpool::detail::set_runtime_knob(&knobs, item.substr(0, eq), value)) {
      fail("bad run-time knob '" + item + "' (runtime/dispatch/runtime_knobs.h names them; values from 1)");
    }
  }
  return knobs;
}

int route(const Options& o) {
  for (const TuningNode& node : parse_nodes(o.nodes)) {
    reset_counts();
    PreparedNode prepared(node);
    const onnxpool::Status status = prepared.run();
    std::string kernels;
    for (const std::string& s : slots_called()) kernels += (kernels.empty() ? "" : ", ") + json_string(s);
    std::printf("{\"node\": %s, \"status\": %s, \"kernels\": [%s]}\n", json_string(node.text).c_str(),
                json_string(status ? "ok" : status.message()).c_str(), kernels.c_str());
  }
  return 0;
}

// Passed, rejected (a wrong result or an error status), or unexercised
// (no node reached the candidate: nothing was proven).
// Run-time knobs are checked on the nodes alone: they pick among the
// library's own kernels, so no one kernel need run.
int check(const Options& o, const Slot& slot, size_t target) {
  if (o.candidates.size() > 1) fail("check takes one --candidate");
  const bool runtime = !o.candidates.empty() && is_runtime_spec(o.candidates[0]);
  if (runtime) {
    onnxpool::detail::replace_runtime_knobs(target, parse_runtime_knobs(o.candidates[0]));
  } else if (!o.candidates.empty()) {
    use_candidate(slot, load_candidate(o.candidates[0], slot));
  }
  std::vector<std::string> texts = o.nodes;
  if (o.tiny) {
    const onnxpool::detail::KernelEntry& k = onnxpool::detail::kernel_at(slot.kernel);
    const std::vector<std::string> tiny =
        tiny_nodes(k.op, k.type, k.spatial_rank, k.variant == onnxpool::detail::KernelVariant::kWithIndices);
    texts.insert(texts.end(), tiny.begin(), tiny.end());
  }
  const ReferenceCache cache(o.reference_cache);
  int checked = 0, reached = 0;
  std::string rejection;
  for (const TuningNode& node : parse_nodes(texts)) {
    const uint64_t before = calls(slot);
    const std::optional<std::string> failure = check_node(node, o.seed + checked, cache);
    ++checked;
    const bool ran = calls(slot) != before;
    reached += ran ? 1 : 0;
    // A node that another kernel served proves nothing about this one, but
    // its mismatch would still be the library's: report it either way.
    if (failure) {
      rejection = (ran ? "" : "(not this kernel) ") + *failure;
      break;
    }
  }
  const char* status = !rejection.empty() ? "rejected" : reached == 0 && !runtime ? "unexercised" : "passed";
  std::printf("{\"status\": \"%s\", \"checked\": %d, \"reached\": %d, \"reason\": %s}\n", status, checked, reached,
              json_string(rejection.substr(0, 2000)).c_str());
  return 0;
}

// `slot` is unset (no --kernel) when every candidate is builtin or run-time knobs.
int time_candidates(const Options& o, const Slot* slot, size_t target) {
  struct Candidate {
    std::string label;
    KernelFunctions functions;
    bool builtin;
    onnxpool::detail::RuntimeKnobs runtime;
  };
  const onnxpool::detail::RuntimeKnobs built_runtime = onnxpool::detail::replace_runtime_knobs(target, {});
  onnxpool::detail::replace_runtime_knobs(target, built_runtime);
  std::vector<Candidate> candidates;
  for (const std::string& spec : o.candidates) {
    // '|': labels name knob settings, which hold '=' and ','.
    const size_t eq = spec.find('|');
    if (eq == std::string::npos || eq == 0) {
      fail("candidate '" + spec + "' is not LABEL|SO:FUNCTION, LABEL|builtin or LABEL|runtime:KNOBS");
    }
    const std::string label = spec.substr(0, eq), where = spec.substr(eq + 1);
    if (where == "builtin") {
      candidates.push_back({label, {}, true, built_runtime});
    } else if (is_runtime_spec(where)) {
      candidates.push_back({label, {}, true, parse_runtime_knobs(where)});
    } else {
      if (slot == nullptr) fail("a kernel candidate needs --kernel");
      candidates.push_back({label, load_candidate(where, *slot), false, built_runtime});
    }
  }
  if (candidates.empty()) fail("time needs at least one --candidate");
  std::vector<TuningNode> nodes = parse_nodes(o.nodes);
  if (nodes.empty()) fail("time needs at least one --node");
  std::vector<PreparedNode> prepared;
  for (const TuningNode& n : nodes) prepared.emplace_back(n);
  if (!onnxpool::set_num_threads(o.threads)) fail("set_num_threads failed");

  using Clock = std::chrono::steady_clock;
  // samples[candidate][node]: microseconds per call, one per round.
  std::vector<std::vector<std::vector<double>>> samples(
      candidates.size(), std::vector<std::vector<double>>(nodes.size()));
  std::vector<std::vector<bool>> reached(candidates.size(), std::vector<bool>(nodes.size(), true));
  for (int round = 0; round < o.rounds; ++round) {
    for (size_t turn = 0; turn < candidates.size(); ++turn) {
      const size_t c = (turn + static_cast<size_t>(round)) % candidates.size();
      if (slot != nullptr && candidates[c].builtin) restore_builtin(*slot);
      if (slot != nullptr && !candidates[c].builtin) use_candidate(*slot, candidates[c].functions);
      onnxpool::detail::replace_runtime_knobs(target, candidates[c].runtime);
      for (size_t n = 0; n < nodes.size(); ++n) {
        const uint64_t before = slot != nullptr ? calls(*slot) : 0;
        if (!prepared[n].run()) fail("node " + nodes[n].text + " failed with candidate " + candidates[c].label);
        reached[c][n] = reached[c][n] && (slot == nullptr || calls(*slot) != before);
        int runs = 0;
        const Clock::time_point start = Clock::now();
        double elapsed_us = 0;
        do {
          prepared[n].run();
          ++runs;
          elapsed_us = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
        } while (elapsed_us < o.sample_ms * 1000.0);
        samples[c][n].push_back(elapsed_us / runs);
      }
    }
  }
  for (size_t c = 0; c < candidates.size(); ++c) {
    for (size_t n = 0; n < nodes.size(); ++n) {
      std::string list;
      for (double s : samples[c][n]) list += (list.empty() ? "" : ", ") + std::to_string(s);
      std::printf("{\"candidate\": %s, \"node\": %s, \"threads\": %d, \"reached\": %s, \"samples_us\": [%s]}\n",
                  json_string(candidates[c].label).c_str(), json_string(nodes[n].text).c_str(), o.threads,
                  reached[c][n] ? "true" : "false", list.c_str());
    }
  }
  return 0;
}

// The region markers tools/tuning/qemu_instruction_count.cpp counts between:
// getpid ignores its arguments, so natively they cost a syscall and no more.
constexpr uint64_t kCountMarker = 0x6f6e6e78706f6f49ull;

void mark_region(uint64_t phase, uint64_t region) { syscall(SYS_getpid, kCountMarker, phase, region); }

// Each candidate's calls on each node in a region of its own, after one call
// outside it (lazy set-up, and whether the candidate's slot was reached).
// Regions are numbered in the order printed.
int count_candidates(const Options& o, const Slot& slot) {
  struct Candidate {
    std::string label;
    KernelFunctions functions;
    bool builtin;
  };
  std::vector<Candidate> candidates;
  for (const std::string& spec : o.candidates) {
    const size_t bar = spec.find('|');
    if (bar == std::string::npos || bar == 0) fail("candidate '" + spec + "' is not LABEL|SO:FUNCTION or LABEL|builtin");
    const std::string where = spec.substr(bar + 1);
    if (where == "builtin") {
      candidates.push_back({spec.substr(0, bar), {}, true});
    } else {
      candidates.push_back({spec.substr(0, bar), load_candidate(where, slot), false});
    }
  }
  if (candidates.empty()) fail("count needs at least one --candidate");
  const std::vector<TuningNode> nodes = parse_nodes(o.nodes);
  if (nodes.empty()) fail("count needs at least one --node");
  std::vector<PreparedNode> prepared;
  for (const TuningNode& n : nodes) prepared.emplace_back(n);
  if (!onnxpool::set_num_threads(1)) fail("set_num_threads failed");
  uint64_t region = 0;
  for (const Candidate& candidate : candidates) {
    const std::string& label = candidate.label;
    if (candidate.builtin) {
      restore_builtin(slot);
    } else {
      use_candidate(slot, candidate.functions);
    }
    for (size_t n = 0; n < nodes.size(); ++n) {
      const uint64_t before = calls(slot);
      if (!prepared[n].run()) fail("node " + nodes[n].text + " failed with candidate " + label);
      const bool reached = calls(slot) != before;
      mark_region(0, region);
      for (int i = 0; i < o.calls; ++i) prepared[n].run();
      mark_region(1, region);
      std::printf("{\"candidate\": %s, \"node\": %s, \"region\": %llu, \"calls\": %d, \"reached\": %s}\n",
                  json_string(label).c_str(), json_string(nodes[n].text).c_str(),
                  static_cast<unsigned long long>(region), o.calls, reached ? "true" : "false");
      ++region;
    }
  }
  return 0;
}

}  // namespace
}  // namespace onnxpool_tune

int main(int argc, char** argv) {
  using namespace onnxpool_tune;
  const Options o = parse(argc, argv);
  if (o.mode == "knobs") return knobs();
  install_counters();
  // A GPU variant runs the backend's kernels on host tensors, with the
  // host code (and any CPU fallback) at the best CPU variant.
  const onnxpool::Backend backend = backend_of(o.variant);
  const bool gpu = backend != onnxpool::Backend::kCpu;
  const onnxpool::CpuVariant variant =
      o.variant.empty() || gpu ? onnxpool::CpuVariant::kNative : variant_of(o.variant);
  if (!onnxpool::set_cpu_variant_limit(variant)) fail("this CPU cannot run the " + o.variant + " kernels");
  if (gpu) {
    const onnxpool::Status s = onnxpool::set_backend(backend);
    if (!s) fail("the " + o.variant + " backend: " + s.message());
  }
  if (o.mode == "route") return route(o);
  const size_t target = target_of(backend, variant);
  Slot slot;
  std::string error;
  if (!o.kernel.empty() && !find_slot(o.kernel, target, &slot, &error)) fail(error);
  if (o.mode == "check") {
    if (o.kernel.empty() && (o.candidates.empty() || !is_runtime_spec(o.candidates[0]) || o.tiny)) {
      fail("check needs --kernel, unless it checks run-time knobs on the given nodes");
    }
    return check(o, slot, target);
  }
  if (o.mode == "count") {
    if (o.kernel.empty()) fail("count needs --kernel");
    return count_candidates(o, slot);
  }
  return time_candidates(o, o.kernel.empty() ? nullptr : &slot, target);
}
