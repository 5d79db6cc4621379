// main() for the onnxpool benchmark binary.
#include <benchmark/benchmark.h>

#include <vector>

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
  int count = static_cast<int>(args.size());
  args.push_back(nullptr);

  benchmark::Initialize(&count, args.data());
  if (benchmark::ReportUnrecognizedArguments(count, args.data())) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
