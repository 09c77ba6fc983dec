#!/usr/bin/env bash
# kt set-up: installs every dependency from Debian's packages and builds Kokkos 3.4.01 from
# Debian's trilinos source package into a git-ignored prefix. Idempotent: a prefix that
# already holds Kokkos is reused. Run as root on Debian 12.
#
#   scripts/setup.sh                  # packages + Kokkos (Serial, OpenMP) into ./.deps/kokkos
#   scripts/setup.sh --cuda           # also Kokkos (Serial, OpenMP, Cuda) into ./.deps/kokkos-cuda
#   scripts/setup.sh --cuda=AMPERE80  # ... for another GPU architecture (default HOPPER90)
#   KT_SKIP_APT=1 scripts/setup.sh    # only build Kokkos (packages already present)
#   scripts/setup.sh --kokkos=4.6.01  # Kokkos 4.6.01 from its release tarball instead, into
#                                     # ./.deps/kokkos-4.6.01 (../shared/kokkos/kokkos-4.6.01.tar.gz,
#                                     # or --kokkos=/path/to/kokkos-X.Y.ZZ.tar.gz)
#   scripts/setup.sh --kokkos=4.6.01 --std=20   # ... built as C++20 (Kokkos 5's standard), into
#                                     # ./.deps/kokkos-4.6.01-cxx20
#
#   scripts/setup.sh --kokkos=4.6.01 --cuda     # ... with Cuda too, into ./.deps/kokkos-4.6.01-cuda
#
# The Cuda build needs the CUDA toolkit (nvcc on PATH, CUDA 12 or 13); kt applies its own
# patches to the Kokkos source (scripts/patches/kokkos-VERSION: CUDA 13's memory and graph API,
# and for 3.4.01 Hopper support and half conversions).
# Then configure kt with the documented Cuda line (README, docs/devices.md):
#   cmake -S . -B build-cuda -DKokkos_ROOT=.deps/kokkos-cuda \
#         -DCMAKE_CXX_COMPILER=$PWD/.deps/kokkos-cuda/bin/nvcc_wrapper
# Users with their own Kokkos skip this and pass -DKokkos_ROOT=... to CMake.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
deps="${KT_DEPS_DIR:-$root/.deps}"
jobs=$(nproc)

cuda_arch=""
kokkos=3.4.01  # Debian's (trilinos' source package): what a fresh machine can get
cxx_std=17
for arg in "$@"; do
  case "$arg" in
    --cuda) cuda_arch=HOPPER90 ;;
    --cuda=*) cuda_arch="${arg#--cuda=}" ;;
    --kokkos=*) kokkos="${arg#--kokkos=}" ;;
    --std=17|--std=20) cxx_std="${arg#--std=}" ;;
    -h|--help) sed -n '2,21p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "kt setup: unknown argument '$arg' (expected --cuda[=ARCH], --kokkos=VERSION|TARBALL, --std=17|20)" >&2
       exit 2 ;;
  esac
done

# Which Kokkos: 3.4.01 from Debian's source, or a release tarball (a version names
# ../shared/kokkos/kokkos-VERSION.tar.gz). Prefixes: .deps/kokkos[-cuda] for the default,
# .deps/kokkos-VERSION[-cxx20][-cuda] for the others.
kokkos_tarball=""
suffix=""
if [ "$kokkos" != 3.4.01 ] || [ "$cxx_std" != 17 ]; then
  case "$kokkos" in
    *.tar.gz) kokkos_tarball="$kokkos"; kokkos=$(basename "$kokkos" .tar.gz); kokkos="${kokkos#kokkos-}" ;;
    3.4.01) ;;
    *) kokkos_tarball="$root/../shared/kokkos/kokkos-$kokkos.tar.gz" ;;
  esac
  if [ -n "$kokkos_tarball" ] && [ ! -f "$kokkos_tarball" ]; then
    echo "kt setup: no Kokkos $kokkos release tarball at $kokkos_tarball (give --kokkos=/path/to/kokkos-$kokkos.tar.gz)" >&2
    exit 2
  fi
  suffix="-$kokkos"
  [ "$cxx_std" = 17 ] || suffix="$suffix-cxx$cxx_std"
fi

packages=(
  build-essential cmake ccache git pkg-config
  libeigen3-dev doctest-dev libbenchmark-dev libopenblas-dev libopenblas-openmp-dev
  libopenblas0-pthread  # tests only: kt's GEMMs against a BLAS with a thread pool of its own
  libopenmpi-dev openmpi-bin zlib1g-dev
  nlohmann-json3-dev  # tests and the example's run summary: kt reads and writes its JSON itself
  dataset-fashion-mnist
  python3-torch  # tests only: PyTorch reads kt's checkpoints (tests/io/pytorch/check_kt_files.py)
  libdlpack-dev  # kt/interop/dlpack.hpp
  pybind11-dev python3-dev  # tests only: kt and PyTorch exchange tensors (tests/interop/dlpack_torch)
  universal-ctags  # tests only: every public name is documented (scripts/check_api_docs.py)
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

# Kokkos 3.4.01 ships inside Debian's trilinos 13.2.0 source package: fetch it once per run.
kokkos_src=""
fetch_kokkos_source() {
  [ -n "$kokkos_src" ] && return
  if [ -n "$kokkos_tarball" ]; then
    local work="$deps/source-kokkos$suffix"  # per prefix: two set-ups may run at once (the matrix)
    rm -rf "$work" && mkdir -p "$work"
    tar -xzf "$kokkos_tarball" -C "$work"
    kokkos_src=$(ls -d "$work"/kokkos-* | head -n 1)
    return
  fi
  local src_list=/etc/apt/sources.list.d/debian-src.sources
  if ! grep -rqs "deb-src" /etc/apt/sources.list /etc/apt/sources.list.d/; then
    sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources | as_root tee "$src_list" >/dev/null
    apt_updated=0
  fi
  apt_update_once
  local work="$deps/source-kokkos"
  rm -rf "$work" && mkdir -p "$work"
  # (apt warns that it downloads as root, unsandboxed: only show its output on failure)
  (cd "$work" && apt-get source --download-only trilinos >"$work/apt.log" 2>&1) ||
    { cat "$work/apt.log" >&2; exit 1; }
  local tarball
  tarball=$(ls "$work"/trilinos_*.orig.tar.gz | head -n 1)
  tar -xzf "$tarball" -C "$work" --wildcards '*/packages/kokkos/*'
  rm -f "$work"/trilinos_* "$work/apt.log"
  kokkos_src=$(ls -d "$work"/*/packages/kokkos | head -n 1)
}

# build_kokkos PREFIX CMAKE_ARGS...: configures, builds and installs a copy of the source.
build_kokkos() {
  local prefix="$1"; shift
  local build="$prefix-build"
  rm -rf "$build" && mkdir -p "$build"
  cmake -S "$kokkos_src" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_CXX_STANDARD="$cxx_std" \
    -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON \
    -DCMAKE_POSITION_INDEPENDENT_CODE=ON "$@" >"$build/configure.log" 2>&1 ||
    { cat "$build/configure.log" >&2; exit 1; }
  cmake --build "$build" -j "$jobs" >"$build/build.log" 2>&1 || { tail -40 "$build/build.log" >&2; exit 1; }
  cmake --install "$build" >/dev/null
  rm -rf "$build"
}

host_prefix="$deps/kokkos$suffix"
if [ -f "$host_prefix/lib/cmake/Kokkos/KokkosConfig.cmake" ]; then
  echo "kt setup: Kokkos already in $host_prefix"
else
  fetch_kokkos_source
  build_kokkos "$host_prefix"
  echo "kt setup: Kokkos $kokkos (Serial, OpenMP, C++$cxx_std) installed in $host_prefix"
fi

if [ -n "$cuda_arch" ] && ! command -v nvcc >/dev/null; then
  echo "kt setup: no nvcc on PATH (the CUDA toolkit): skipping Kokkos-Cuda (--cuda)"
  cuda_arch=""
fi
if [ -n "$cuda_arch" ]; then
  cuda_prefix="$deps/kokkos$suffix-cuda"
  if [ -f "$cuda_prefix/lib/cmake/Kokkos/KokkosConfig.cmake" ] &&
     grep -q "KOKKOS_ARCH_${cuda_arch}\b" "$cuda_prefix/include/KokkosCore_config.h" 2>/dev/null; then
    echo "kt setup: Kokkos-Cuda ($cuda_arch) already in $cuda_prefix"
  else
    fetch_kokkos_source
    for patch in "$root"/scripts/patches/kokkos-"$kokkos"/*.patch; do
      [ -f "$patch" ] || continue  # a version without patches of kt's
      patch -d "$kokkos_src" -p1 --forward --quiet <"$patch"
    done
    # The architecture option names the sm_XX flag (AMPERE80 -> sm_80, HOPPER90 -> sm_90).
    sm="sm_${cuda_arch//[!0-9]/}"
    # nvcc_wrapper's own default (sm_35) is rejected by CUDA >= 12; two different -arch flags
    # make it fail, so its default must equal the Kokkos architecture.
    sed -i "s/^default_arch=\"sm_[0-9]*\"/default_arch=\"$sm\"/" "$kokkos_src/bin/nvcc_wrapper"
    rm -rf "$cuda_prefix"
    build_kokkos "$cuda_prefix" -DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_CUDA_LAMBDA=ON \
      "-DKokkos_ARCH_${cuda_arch}=ON" -DCMAKE_CXX_COMPILER="$kokkos_src/bin/nvcc_wrapper"
    echo "kt setup: Kokkos (Serial, OpenMP, Cuda $cuda_arch/$sm) installed in $cuda_prefix"
  fi
fi
rm -rf "$deps/source-kokkos"
