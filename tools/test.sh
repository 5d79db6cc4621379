#!/usr/bin/env bash
# Sets up what is missing, builds, and runs every test (what CI runs):
# the x86-64 library's suite, then the ARM64 library's, cross-built and run
# under qemu-aarch64, then the suite again under AddressSanitizer and
# UndefinedBehaviorSanitizer with a bounded run of each fuzzer (fuzz/README.md).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
tools/setup.sh
printf '\n== Running every test of the x86-64 build (ctest)\n'
.venv/bin/ctest --preset x86-64 -j "$(nproc)"
tools/build_preset.sh arm64
printf '\n== Running every test of the ARM64 build under qemu-aarch64 (ctest)\n'
.venv/bin/ctest --preset arm64 -j "$(nproc)"
tools/build_preset.sh sanitize
printf '\n== Running every test under ASan and UBSan, and each fuzzer for a bounded time (ctest)\n'
.venv/bin/ctest --preset sanitize -j "$(nproc)"
