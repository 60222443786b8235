#!/usr/bin/env bash
# Install what sepax's build, tests and benchmark need on Debian 12, as root.
# Installs only what is missing; does nothing when everything is there.
set -euo pipefail
pkgs=(build-essential meson ninja-build pkg-config cmake libsimde-dev libcriterion-dev
      clang clang-format libclang-rt-14-dev valgrind binutils hyperfine
      gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
      libbox2d-dev libchipmunk-dev)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update
$sudo apt-get install -y --no-install-recommends "${missing[@]}"
