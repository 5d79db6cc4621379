#!/usr/bin/env bash
# Benchmarks the pooling nodes named by case strings (grammar: bench/README.md),
# e.g.
#   tools/bench_cases.sh maxpool:1x64x112x112:k3x3:s2x2:p1x1x1x1 globalaveragepool:1x2048x7x7:f16
# with onnxpool, every peer that takes the case (oneDNN, XNNPACK, onnxruntime,
# and PyTorch where tools/main.sh installed it) and the bandwidth floor, and
# prints the ratio table (tools/bench_report.py). Needs the build of
# tools/setup.sh. The JSON and the report go to out/bench-cases/.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
if [[ $# -eq 0 || "$1" == -h || "$1" == --help ]]; then
  sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  [[ $# -eq 0 ]] && exit 2 || exit 0
fi
if [[ ! -x build/bench/onnxpool_bench ]]; then
  echo "error: build/bench/onnxpool_bench is missing; run tools/setup.sh first" >&2
  exit 1
fi
cases=()
for text in "$@"; do cases+=(--case "$text"); done
mkdir -p out/bench-cases
build/bench/onnxpool_bench "${cases[@]}" --benchmark_out=out/bench-cases/cases.json \
  --benchmark_out_format=json
peers=onnxruntime
if [[ -f .venv/.requirements-bench-installed ]]; then peers=onnxruntime,torch; fi
.venv/bin/python bench/python_peers.py -o out/bench-cases/python_peers.json --peers "$peers" "${cases[@]}"
.venv/bin/python tools/bench_report.py out/bench-cases/cases.json out/bench-cases/python_peers.json \
  -o out/bench-cases/report.md
printf '\nTable: out/bench-cases/report.md, plot: out/bench-cases/report.png\n'
