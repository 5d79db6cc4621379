#!/usr/bin/env bash
# Tunes onnxpool's kernels for this machine (tools/tuning/tune.py --help):
# sets up and builds what is missing (tools/setup.sh), builds the tuning
# runner (and, for --targets arm64, the ARM64 cross build), then searches, checks and times each kernel's candidates, records
# them in build/tuning/results.jsonl (a rerun resumes), writes the winners
# into generators/schedules/tuned/<target>.json and a report per target.
# Rebuild with tools/setup.sh afterwards to compile the winners.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
for arg in "$@"; do
  if [[ "$arg" == "-h" || "$arg" == "--help" ]]; then
    exec python3 tools/tuning/tune.py --help
  fi
done
if [[ -z "${ONNXPOOL_TUNE_NO_BUILD:-}" ]]; then
  tools/setup.sh >&2
  .venv/bin/cmake --build --preset x86-64 --target onnxpool_tune_runner onnxpool_qemu_instruction_count >&2
  # --targets arm64: the ARM64 cross build's runner counts candidates under qemu.
  if [[ " $* " =~ [[:space:]=,]arm64[[:space:],] ]]; then
    tools/build_preset.sh arm64 >&2
  fi
fi
exec .venv/bin/python tools/tuning/tune.py "$@"
