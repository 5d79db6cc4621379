#!/usr/bin/env bash
# Installs what is missing (Debian packages, the project's .venv), then
# configures and builds onnxpool in build/. A second run only rebuilds what changed.
#   tools/setup.sh [extra cmake -D options...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

step() { printf '\n== %s\n' "$*"; }

install_debian_packages() {
  local missing=()
  while read -r pkg; do
    [[ -z "$pkg" || "$pkg" == \#* ]] && continue
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done < tools/debian-packages.txt
  if [[ ${#missing[@]} -eq 0 ]]; then
    return
  fi
  step "Installing Debian packages: ${missing[*]}"
  local sudo=""
  if [[ $(id -u) -ne 0 ]]; then
    if command -v sudo >/dev/null; then
      sudo="sudo"
    else
      echo "error: not root and no sudo; run as root: apt-get update && apt-get install -y ${missing[*]}" >&2
      exit 1
    fi
  fi
  # A fresh machine may have no package lists at all.
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
}

install_python_env() {
  local stamp=".venv/.requirements-installed"
  if [[ -f "$stamp" ]] && cmp -s tools/requirements.txt "$stamp"; then
    return
  fi
  step "Creating .venv with $(python3 --version) and tools/requirements.txt"
  [[ -x .venv/bin/python ]] || python3 -m venv .venv
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -r tools/requirements.txt
  cp tools/requirements.txt "$stamp"
}

configure_and_build() {
  # CMakePresets.json's x86-64 preset: build/ with Ninja from the .venv; the
  # project's CMake finds Halide in the .venv (cmake/OnnxpoolHalideLocation.cmake).
  if [[ ! -f build/build.ninja || $# -gt 0 ]]; then
    step "Configuring build/"
    .venv/bin/cmake --preset x86-64 "$@"
  fi
  step "Building (the first build generates every kernel: a few minutes)"
  .venv/bin/cmake --build --preset x86-64
}

install_debian_packages
install_python_env
configure_and_build "$@"
