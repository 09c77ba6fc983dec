#!/usr/bin/env bash
# kt's host test suite against other Kokkos releases and C++ standards. For each VERSION:STD
# (default: 4.6.01:20 4.6.01:17) it builds that Kokkos once with scripts/setup.sh (Serial +
# OpenMP, from ../shared/kokkos/kokkos-VERSION.tar.gz or KT_KOKKOS_TARBALL_DIR), configures kt
# against it as C++STD in BUILD_ROOT/kokkos-VERSION-cxxSTD (no benchmarks, no nested Cuda
# build, no matrix of its own; the tests linked with kt::kt_compiled, which builds them in about half the time and
# compiles kt's heaviest templates against that Kokkos once), builds every test and runs ctest. Ends with one line per configuration: tests
# passed/failed and the minutes each phase took. A missing tarball skips its line, saying so.
#
#   scripts/kokkos_matrix.sh [VERSION:STD ...]        (BUILD_ROOT=/tmp/kt-kokkos-matrix, JOBS=2)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_root=${BUILD_ROOT:-/tmp/kt-kokkos-matrix}
jobs=${JOBS:-2}
tarballs=${KT_KOKKOS_TARBALL_DIR:-$root/../shared/kokkos}
configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(4.6.01:20 4.6.01:17)
summary=()
mkdir -p "$build_root"
minutes() { awk -v s="$1" -v e="$2" 'BEGIN { printf "%.1f", (e - s) / 60 }'; }

for config in "${configs[@]}"; do
  version=${config%%:*} std=${config#*:}
  name="Kokkos $version, C++$std"
  tarball="$tarballs/kokkos-$version.tar.gz"
  if [ ! -f "$tarball" ]; then
    summary+=("$name: skipped (no $tarball)")
    continue
  fi
  t0=$(date +%s)
  if ! KT_SKIP_APT=1 "$root/scripts/setup.sh" --kokkos="$tarball" --std="$std" >"$build_root-$version-$std-setup.log" 2>&1; then
    summary+=("$name: Kokkos did not build ($build_root-$version-$std-setup.log)")
    continue
  fi
  prefix="$root/.deps/kokkos-$version"
  [ "$std" = 17 ] || prefix="$prefix-cxx$std"
  dir="$build_root/kokkos-$version-cxx$std"
  t1=$(date +%s)
  if ! { cmake -S "$root" -B "$dir" -DKokkos_ROOT="$prefix" -DCMAKE_CXX_STANDARD="$std" -DKT_ENABLE_BENCHMARKS=OFF \
           -DKT_USE_COMPILED=ON -DKT_CUDA_KOKKOS_ROOT=/nonexistent -DKT_SANITIZE_CHECK=OFF -DKT_KOKKOS_MATRIX= >"$dir.log" 2>&1 &&
         cmake --build "$dir" -j "$jobs" >>"$dir.log" 2>&1; }; then
    summary+=("$name: kt did not build (tail of $dir.log: $(grep -m1 'error' "$dir.log"))")
    continue
  fi
  t2=$(date +%s)
  OMP_PROC_BIND=false OMP_PLACES=threads ctest --test-dir "$dir" -j "$jobs" -E '^cuda:' >"$dir-ctest.log" 2>&1
  t3=$(date +%s)
  result=$(grep -E "tests passed|tests failed" "$dir-ctest.log" | tail -1)
  summary+=("$name: ${result:-no ctest summary} (Kokkos $(minutes "$t0" "$t1") min, kt build $(minutes "$t1" "$t2") min, tests $(minutes "$t2" "$t3") min)")
done

echo "kt Kokkos matrix ($(git -C "$root" rev-parse --short HEAD), $(c++ --version | head -1)):"
status=0
for line in "${summary[@]}"; do
  echo "  $line"
  case "$line" in *"100% tests passed"*) ;; *skipped*) ;; *) status=1 ;; esac
done
exit $status
