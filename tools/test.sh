#!/usr/bin/env bash
# Sets up what is missing, builds, and runs every test (what CI runs).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
tools/setup.sh
printf '\n== Running every test (ctest)\n'
.venv/bin/ctest --test-dir build --output-on-failure -j "$(nproc)"
