#!/usr/bin/env bash
# The main job: sets up what is missing, builds, runs the conformance runner
# over the official ONNX pooling cases, then the MaxPool benchmark against its
# peers, and writes the ratio table and plot to out/bench/.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
tools/setup.sh

printf '\n== Official ONNX pooling cases (regenerated from the pinned onnx package)\n'
.venv/bin/python tools/fetch_onnx_cases.py build/onnx-cases
conformance=0
build/tools/runner/onnxpool_test_runner --output-dir out/onnx-results build/onnx-cases || conformance=$?

printf '\n== MaxPool benchmark (about 3 minutes; run it on a quiet machine)\n'
mkdir -p out/bench
build/bench/onnxpool_bench_maxpool --benchmark_out=out/bench/maxpool.json --benchmark_out_format=json
.venv/bin/python tools/bench_report.py out/bench/maxpool.json -o out/bench/maxpool.md
printf '\nTable: out/bench/maxpool.md, plot: out/bench/maxpool.png, onnxpool outputs: out/onnx-results/\n'
if [[ $conformance -ne 0 ]]; then
  echo "Conformance: some official cases failed (see the FAIL lines above)." >&2
fi
exit "$conformance"
