// main() for the onnxpool benchmark binary.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "onnxpool/pooling.h"
#include "case_string.h"
#include "pool_bench.h"
#include "user_cases.h"

namespace {

// The CPU's model name from /proc/cpuinfo (Linux), or empty. The report
// prints it: this project's benchmark machines are not always the same kind
// (an AVX-512 Intel Xeon, an AVX2-only AMD EPYC Zen 3, an AVX-512 AMD EPYC
// Zen 4), and the ratios to the peers differ between them.
std::string cpu_model_name() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line, name, family, model;
  const auto value_of = [&line](const char* key, std::string* value) {
    const size_t length = std::strlen(key);
    if (!value->empty() || line.compare(0, length, key) != 0) return;
    const size_t colon = line.find(':');
    if (colon == std::string::npos || line.find_first_not_of(" \t", length) != colon) return;
    const size_t start = line.find_first_not_of(" \t", colon + 1);
    if (start != std::string::npos) *value = line.substr(start);
  };
  while (std::getline(cpuinfo, line)) {
    value_of("model name", &name);
    value_of("cpu family", &family);
    value_of("model", &model);
  }
  // Virtual machines often report a bare "AMD EPYC"; the family and model
  // tell the generations apart (AMD family 25 model 1: Zen 3, 17: Zen 4).
  if (!family.empty() && !model.empty()) name += " (family " + family + ", model " + model + ")";
  return name;
}

constexpr char kCpuVariantFlag[] = "--onnxpool_cpu_variant=";

// Applies --onnxpool_cpu_variant=NAME (NAME as onnxpool::cpu_variant_name
// spells it: native, avx512_skylake, avx2_fma_f16c, baseline) and removes it
// from `args`: it caps the x86 variant onnxpool's dispatcher may pick, so
// that one machine can time a lesser variant against the same peers (e.g.
// the AVX2 kernels on an AVX-512 CPU). Every onnxpool row's label names the
// variant that ran. False, after saying why, for an unknown NAME.
bool apply_cpu_variant_flag(std::vector<char*>* args) {
  for (auto it = args->begin(); it != args->end(); ++it) {
    if (std::strncmp(*it, kCpuVariantFlag, sizeof kCpuVariantFlag - 1) != 0) continue;
    const std::string name = *it + sizeof kCpuVariantFlag - 1;
    args->erase(it);
    std::string known;
    for (onnxpool::CpuVariant variant : {onnxpool::CpuVariant::kNative, onnxpool::CpuVariant::kAvx512,
                                         onnxpool::CpuVariant::kAvx2, onnxpool::CpuVariant::kBaseline}) {
      if (name == onnxpool::cpu_variant_name(variant)) {
        return static_cast<bool>(onnxpool::set_cpu_variant_limit(variant));
      }
      known += std::string(known.empty() ? "" : ", ") + onnxpool::cpu_variant_name(variant);
    }
    std::fprintf(stderr, "onnxpool_bench: unknown %s%s (one of: %s)\n", kCpuVariantFlag, name.c_str(), known.c_str());
    return false;
  }
  return true;
}

// Takes every --case STRING / --case=STRING and --cases-file FILE / --cases-file=FILE out of
// `args`, the strings in command-line order and a file's in its order (read_cases_file).
// False, after saying why, when a flag has no value or a file cannot be read or holds a bad string.
bool take_case_flags(std::vector<char*>* args, std::vector<std::string>* cases) {
  for (auto it = args->begin(); it != args->end();) {
    const std::string arg = *it;
    const bool is_case = arg == "--case" || arg.rfind("--case=", 0) == 0;
    const bool is_file = arg == "--cases-file" || arg.rfind("--cases-file=", 0) == 0;
    if (!is_case && !is_file) {
      ++it;
      continue;
    }
    std::string value;
    const size_t equals = arg.find('=');
    if (equals != std::string::npos) {
      value = arg.substr(equals + 1);
      it = args->erase(it);
    } else if (it + 1 == args->end()) {
      std::fprintf(stderr, "onnxpool_bench: %s needs %s\n", arg.c_str(), is_case ? "a case string" : "a file");
      return false;
    } else {
      value = *(it + 1);
      it = args->erase(it, it + 2);
    }
    std::string error;
    if (is_case) {
      cases->push_back(value);
    } else if (!onnxpool_bench::read_cases_file(value, cases, &error)) {
      std::fprintf(stderr, "onnxpool_bench: %s\n", error.c_str());
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  // Medians over repetitions are what the reports quote, so repeat by default.
  // The defaults go before the user's arguments: Google Benchmark lets a later
  // flag override an earlier one, so anything on the command line still wins.
  static char kRepetitions[] = "--benchmark_repetitions=5";
  static char kAggregatesOnly[] = "--benchmark_report_aggregates_only=true";
  // Warm-up lets thread pools start and caches fill, and lets the previous
  // benchmark's spinning OpenMP or Halide workers go idle, before timing. (The
  // flag, unlike Benchmark::MinWarmUpTime, leaves benchmark names alone.)
  static char kWarmUp[] = "--benchmark_min_warmup_time=0.1";
  // 0.2 s per repetition (Google Benchmark's default is 0.5 s) keeps a run of
  // every operator, with its 5 repetitions, near 4 minutes on 2 cores; a
  // repetition of the slowest case (S2) still has about 20 iterations.
  // Google Benchmark 1.7 (Debian 12) takes a plain number of seconds here.
  static char kMinTime[] = "--benchmark_min_time=0.2";
  std::vector<char*> args = {argv[0], kRepetitions, kAggregatesOnly, kWarmUp, kMinTime};
  args.insert(args.end(), argv + 1, argv + argc);
  if (!apply_cpu_variant_flag(&args)) return 1;
  // --case STRING and --cases-file FILE (both repeatable): time those nodes instead of the suite.
  std::vector<std::string> cases;
  if (!take_case_flags(&args, &cases)) return 1;
  // --describe_cases: print the parsed --case strings as JSON and stop
  // (bench/python_peers.py reads them so; one parser for both languages).
  for (auto it = args.begin(); it != args.end(); ++it) {
    if (std::strcmp(*it, "--describe_cases") != 0) continue;
    std::string error;
    if (!onnxpool_bench::describe_user_cases(cases, &error)) {
      std::fprintf(stderr, "onnxpool_bench: %s\n", error.c_str());
      return 1;
    }
    return 0;
  }
  if (cases.empty()) {
    onnxpool_bench::register_suite();
  } else {
    std::string error;
    if (!onnxpool_bench::register_user_cases(cases, &error)) {
      std::fprintf(stderr, "onnxpool_bench: %s\n", error.c_str());
      return 1;
    }
  }
  int count = static_cast<int>(args.size());
  args.push_back(nullptr);

  benchmark::Initialize(&count, args.data());
  if (benchmark::ReportUnrecognizedArguments(count, args.data())) return 1;
  const std::string model = cpu_model_name();
  if (!model.empty()) benchmark::AddCustomContext("cpu_model", model);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
