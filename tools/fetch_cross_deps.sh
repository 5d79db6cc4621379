#!/usr/bin/env bash
# Puts the target-architecture libraries a cross build links, but that are not
# part of the cross toolchain, into .deps/<arch>/ (once; later runs do
# nothing):
#   tools/fetch_cross_deps.sh arm64
# Today that is Debian's static libprotobuf.a for the conformance runner
# (tools/runner/README.md). The package is downloaded and unpacked, not
# installed: installing libprotobuf-dev:arm64 through multiarch also installs
# libc6:arm64 into /lib/aarch64-linux-gnu, where the cross toolchain's loader
# under qemu-aarch64 -L /usr/aarch64-linux-gnu then finds a libc of another
# build than itself, and every program that starts a thread hangs.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
arch=${1:?usage: tools/fetch_cross_deps.sh ARCH (e.g. arm64)}
dest=".deps/$arch"
packages=(libprotobuf-dev)
stamp="$dest/.fetched"
if [[ -f "$stamp" ]] && [[ "$(cat "$stamp")" == "${packages[*]}" ]]; then
  exit 0
fi

sudo=""
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "error: not root and no sudo; run as root: dpkg --add-architecture $arch && apt-get update" >&2; exit 1; }
  sudo="sudo"
fi
# apt can download another architecture's packages only once dpkg knows it;
# nothing of that architecture gets installed.
if ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
  printf '\n== Enabling Debian package lists for %s (dpkg --add-architecture; nothing is installed)\n' "$arch"
  $sudo dpkg --add-architecture "$arch"
  $sudo apt-get update -q
fi
download=$(mktemp -d)
chmod 755 "$download"  # apt fetches as its own user
trap 'rm -rf "$download"' EXIT
rm -rf "$dest"
mkdir -p "$dest"
for package in "${packages[@]}"; do
  # The host's version, so headers (shared, from the host package) and the
  # library match.
  version=$(dpkg-query -W -f='${Version}' "$package")
  printf '\n== Unpacking %s:%s %s into %s\n' "$package" "$arch" "$version" "$dest"
  (cd "$download" && apt-get download -q "$package:$arch=$version") ||
    { $sudo apt-get update -q && (cd "$download" && apt-get download -q "$package:$arch=$version"); }
  dpkg-deb -x "$download"/"${package}"_*_"$arch".deb "$dest"
done
echo "${packages[*]}" > "$stamp"
