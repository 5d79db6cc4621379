#!/usr/bin/env bash
# The main job: sets up what is missing, builds, runs the conformance runner
# over the official ONNX pooling cases, then the benchmark of every pooling
# operator against its peers (C++: oneDNN, XNNPACK, the bandwidth floor;
# Python: onnxruntime, PyTorch), and writes the merged ratio tables and plot
# to out/bench/.
#
# ONNXPOOL_BENCH_NO_TORCH=1 skips PyTorch (and its 2.5 GB download, see
# tools/requirements-bench.txt); the report then has no torch rows.
# ONNXPOOL_BENCH_NO_TVM=1 skips Apache TVM (about 700 MB, and MetaSchedule's
# tuning: ONNXPOOL_BENCH_TVM_BUDGET_S seconds per case, default 90, about 25
# minutes the first time on a machine; its records under build/tvm-tuning/
# are reused after).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
tools/setup.sh

# Benchmark-only Python packages (torch: tools/requirements-bench.txt; Apache
# TVM: tools/requirements-tvm.txt), kept out of tools/requirements.txt so that
# tools/test.sh and CI never download them. --no-deps: each file pins exactly
# what its package needs on a CPU (see its header for why).
#   install_bench_requirements FILE WHAT
install_bench_requirements() {
  local file="$1" what="$2"
  local stamp=".venv/.$(basename "$file" .txt)-installed"
  if [[ -f "$stamp" ]] && cmp -s "$file" "$stamp"; then
    return
  fi
  printf '\n== Installing %s into .venv (%s)\n' "$file" "$what"
  .venv/bin/python -m pip install -q --no-deps -r "$file"
  cp "$file" "$stamp"
}

printf '\n== Official ONNX pooling cases (regenerated from the pinned onnx package)\n'
.venv/bin/python tools/fetch_onnx_cases.py build/onnx-cases
conformance=0
build/tools/runner/onnxpool_test_runner --output-dir out/onnx-results build/onnx-cases || conformance=$?

python_peers=(onnxruntime)
if [[ "${ONNXPOOL_BENCH_NO_TORCH:-0}" != 1 ]]; then
  install_bench_requirements tools/requirements-bench.txt "PyTorch for the benchmark: about 2.5 GB"
  python_peers+=(torch)
fi
if [[ "${ONNXPOOL_BENCH_NO_TVM:-0}" != 1 ]]; then
  install_bench_requirements tools/requirements-tvm.txt "Apache TVM for the benchmark: about 700 MB"
  python_peers+=(tvm)
fi

printf '\n== Benchmark, every operator (about 6 minutes; run it on a quiet machine)\n'
mkdir -p out/bench
printf -- '-- C++: onnxpool, oneDNN, XNNPACK, bandwidth floor (about 4 minutes)\n'
build/bench/onnxpool_bench --benchmark_out=out/bench/onnxpool_bench.json --benchmark_out_format=json
printf -- '\n-- Python peers: %s (about 2 minutes; with TVM, its first tuning on a machine adds about 25)\n' "${python_peers[*]}"
.venv/bin/python bench/python_peers.py -o out/bench/python_peers.json \
  --peers "$(IFS=,; echo "${python_peers[*]}")" --tvm-budget-s "${ONNXPOOL_BENCH_TVM_BUDGET_S:-90}"
.venv/bin/python tools/bench_report.py out/bench/onnxpool_bench.json out/bench/python_peers.json \
  -o out/bench/report.md
printf '\nTable: out/bench/report.md, plot: out/bench/report.png, onnxpool outputs: out/onnx-results/\n'

# The census: every pooling node of torchvision's models and YOLO's SPPF, as
# the networks run them. About 5200 C++ benchmarks: 3 repetitions of 0.04 s
# after a 0.02 s warm-up keep the C++ run near 26 minutes on 2 cores (AMD EPYC
# Zen 3; oneDNN's plain nchw code on the large 3D nodes is most of it), and a
# median of 3 is enough to rank a node against its peers.
# Indices rows are left out (no network here asks MaxPool for them), and so is
# TVM's MetaSchedule: its tuning per case would take 5 hours over 196 nodes.
# The full output goes to logs; the screen gets one line per node and thread
# count, and every error.
census=bench/models/torchvision.txt
# Shows the lines of stdin that match $1 and not $2 as they come.
census_progress() { grep --line-buffered -E "$1" | grep --line-buffered -v -E "$2" || true; }
census_cpp=(build/bench/onnxpool_bench --cases-file "$census" --benchmark_repetitions=3
            --benchmark_min_time=0.04 --benchmark_min_warmup_time=0.02 --benchmark_filter=-_indices)
census_python=(bench/python_peers.py --cases-file "$census" --peers "$(IFS=,; echo "${python_peers[*]}")"
               --repetitions 3 --min-time 0.04 --warmup 0.02 --filter='-_indices|tvm_metaschedule')
printf '\n== Census: the pooling nodes of real networks in %s (about 40 minutes)\n' "$census"
printf -- '-- C++: onnxpool, oneDNN, XNNPACK, bandwidth floor (about 26 minutes; onnxpool medians shown)\n'
"${census_cpp[@]}" --benchmark_out=out/bench/census_onnxpool_bench.json --benchmark_out_format=json 2>&1 \
  | tee out/bench/census_onnxpool_bench.log \
  | census_progress '/onnxpool/threads:[0-9]+/real_time_median|/onnxpool[a-z_]*/threads:[0-9]+.*ERROR OCCURRED|^onnxpool_bench:' 'floor only'
printf -- '\n-- Python peers: %s (about 13 minutes; onnxruntime rows and errors shown)\n' "${python_peers[*]}"
.venv/bin/python "${census_python[@]}" -o out/bench/census_python_peers.json 2>&1 \
  | tee out/bench/census_python_peers.log \
  | census_progress '/onnxruntime_nchw/threads:| ERROR |^python_peers:' 'onnxruntime only'
.venv/bin/python tools/census_report.py --models "$census" \
  out/bench/census_onnxpool_bench.json out/bench/census_python_peers.json -o out/bench/census.md \
  --command "$(printf '%q ' "${census_cpp[@]}")" --command "$(printf '%q ' .venv/bin/python "${census_python[@]}")"
printf '\nCensus: out/bench/census.md, plot: out/bench/census.png, logs: out/bench/census_*.log\n'
if [[ $conformance -ne 0 ]]; then
  echo "Conformance: some official cases failed (see the FAIL lines above)." >&2
fi
exit "$conformance"
