#!/usr/bin/env bash
# Configures (once) and builds one CMake preset of CMakePresets.json, e.g.
#   tools/build_preset.sh arm64
# Every preset but x86-64 runs the generators of the host build in build/,
# so tools/setup.sh (which makes that build) runs first.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
preset=${1:?usage: tools/build_preset.sh PRESET [extra cmake -D options...]}
shift
binary_dir=$(.venv/bin/python - "$preset" <<'PY'
import json, sys
presets = {p["name"]: p for p in json.load(open("CMakePresets.json"))["configurePresets"]}
if sys.argv[1] not in presets or presets[sys.argv[1]].get("hidden"):
    sys.exit(f"no configure preset '{sys.argv[1]}' in CMakePresets.json; have: "
             + ", ".join(n for n, p in presets.items() if not p.get("hidden")))
print(presets[sys.argv[1]]["binaryDir"].replace("${sourceDir}/", ""))
PY
)
# Target libraries the cross toolchain lacks (the runner's protobuf).
if [[ "$preset" == arm64 ]]; then
  tools/fetch_cross_deps.sh arm64
fi
if [[ ! -f "$binary_dir/build.ninja" || $# -gt 0 ]]; then
  printf '\n== Configuring %s (preset %s)\n' "$binary_dir" "$preset"
  .venv/bin/cmake --preset "$preset" "$@"
fi
printf '\n== Building %s (the first build generates every kernel for it: a few minutes)\n' "$binary_dir"
.venv/bin/cmake --build --preset "$preset"
