#!/usr/bin/env bash
# kt set-up: installs every dependency from Debian's packages and builds Kokkos 3.4.01
# (Serial + OpenMP) from Debian's trilinos source package into a git-ignored prefix.
# Idempotent: a prefix that already holds Kokkos is reused. Run as root on Debian 12.
#
#   scripts/setup.sh            # packages + Kokkos into ./.deps/kokkos
#   KT_SKIP_APT=1 scripts/setup.sh   # only build Kokkos (packages already present)
#
# Users with their own Kokkos skip this and pass -DKokkos_ROOT=... to CMake.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
deps="${KT_DEPS_DIR:-$root/.deps}"
prefix="$deps/kokkos"
jobs=$(nproc)

packages=(
  build-essential cmake ccache git pkg-config
  libeigen3-dev doctest-dev libbenchmark-dev libopenblas-dev libopenblas-openmp-dev
  libopenmpi-dev openmpi-bin nlohmann-json3-dev zlib1g-dev
  dataset-fashion-mnist
)

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

missing_packages() {
  local p
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
  done
}

apt_updated=0
apt_update_once() {
  if [ "$apt_updated" -eq 0 ]; then as_root apt-get update -qq; apt_updated=1; fi
}

if [ -z "${KT_SKIP_APT:-}" ]; then
  mapfile -t need < <(missing_packages)
  if [ "${#need[@]}" -gt 0 ]; then
    echo "kt setup: installing ${need[*]}"
    apt_update_once
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends "${need[@]}"
  fi
fi

if [ -f "$prefix/lib/cmake/Kokkos/KokkosConfig.cmake" ]; then
  echo "kt setup: Kokkos already in $prefix"
  exit 0
fi

# Kokkos 3.4.01 ships inside Debian's trilinos 13.2.0 source package.
src_list=/etc/apt/sources.list.d/debian-src.sources
if ! grep -rqs "deb-src" /etc/apt/sources.list /etc/apt/sources.list.d/; then
  sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources | as_root tee "$src_list" >/dev/null
  apt_updated=0
fi
apt_update_once

work="$deps/build-kokkos"
rm -rf "$work" && mkdir -p "$work"
(cd "$work" && apt-get source --download-only trilinos >/dev/null)
tarball=$(ls "$work"/trilinos_*.orig.tar.gz | head -n 1)
tar -xzf "$tarball" -C "$work" --wildcards '*/packages/kokkos/*'
kokkos_src=$(ls -d "$work"/*/packages/kokkos | head -n 1)

cmake -S "$kokkos_src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_CXX_STANDARD=17 \
  -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON \
  -DCMAKE_POSITION_INDEPENDENT_CODE=ON >/dev/null
cmake --build "$work/build" -j "$jobs" >/dev/null
cmake --install "$work/build" >/dev/null
rm -rf "$work"
echo "kt setup: Kokkos installed in $prefix"
