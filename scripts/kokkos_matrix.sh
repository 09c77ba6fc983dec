#!/usr/bin/env bash
# kt against other Kokkos releases and C++ standards. For each VERSION:STD[:SET] (default:
# 4.6.01:20 4.6.01:17 4.6.01:cuda) it builds that Kokkos once with scripts/setup.sh (from
# ../shared/kokkos/kokkos-VERSION.tar.gz or KT_KOKKOS_TARBALL_DIR, with kt's patches in
# scripts/patches/kokkos-VERSION; 3.4.01 is setup.sh's default, Debian's source built as C++17,
# so 3.4.01:20 is kt as C++20 on Debian's Kokkos), configures kt against it in
# BUILD_ROOT/kokkos-VERSION-cxxSTD (no benchmarks, no nested Cuda build, no matrix of its own),
# builds and runs ctest:
#  - STD 17 or 20: Kokkos with Serial + OpenMP, kt as C++STD;
#  - cuda: Kokkos with Serial + OpenMP + Cuda (--cuda, HOPPER90), kt compiled by nvcc_wrapper;
#    its tests run on a GPU and report "skipped: no GPU" without one. Needs nvcc; without it
#    the line says so.
# SET says what is built, and its tests run:
#  - none (by hand): every target at the Release flags, every host test but the compile-fail
#    and install checks (kt's own static_asserts and packaging: the main suite's); for cuda
#    the suite;
#  - suite: every test executable and examples/fashion_mnist (target kt_representative_set),
#    every test case and the example's tests;
#  - compile_check: the Cuda build check's set (target kt_compile_check_set: kt_compiled's
#    instantiations for every dtype, the main example, the tensor and functional tests, the
#    CUDA adapters' tests), as tests/cuda_build builds on Debian's Kokkos;
#  - library: kt_compiled, the main example and the CUDA adapters' tests where built (target
#    kt_library_check_set): what a user's program compiles, for a configuration whose Kokkos
#    and standard other lines already check apart;
#  - example: the main example, compiled header-only (KT_USE_COMPILED=OFF), and the CUDA
#    adapters' tests (target kt_example_check_set): the same check for a configuration whose
#    kt_compiled is another line's, in a third of the time (nvcc, 4.6.01: 119 s against 573 s
#    for library, 2 jobs on an idle Xeon; g++: 64 s against 190 s).
# KT_MATRIX_SET=representative (what CI's ctest lines set) makes the default SET suite for the
# host lines and compile_check for cuda. A named set builds at -O1 without -march (one
# kt_compiled for the tests and the example); compile_check, library and example build with
# nvcc at -O0: on a machine without a GPU they run nothing, and nvcc's -O is only the host
# compiler's.
# nvcc's build of every test executable does not fit in CI's hour on two cores beside the rest.
# The tests link kt::kt_compiled, which builds them in about half the time and compiles kt's
# heaviest templates against that Kokkos once. Ends with one line per configuration: tests
# passed/failed and the minutes each phase took. A missing tarball skips its line, saying so.
#
#   scripts/kokkos_matrix.sh [VERSION:STD[:SET] ...]  (BUILD_ROOT=/tmp/kt-kokkos-matrix, JOBS=2)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_root=${BUILD_ROOT:-/tmp/kt-kokkos-matrix}
jobs=${JOBS:-2}
set_kind=${KT_MATRIX_SET:-all}
tarballs=${KT_KOKKOS_TARBALL_DIR:-$root/../shared/kokkos}
configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(4.6.01:20 4.6.01:17 4.6.01:cuda)
summary=()
mkdir -p "$build_root"
minutes() { awk -v s="$1" -v e="$2" 'BEGIN { printf "%.1f", (e - s) / 60 }'; }

for config in "${configs[@]}"; do
  IFS=: read -r version std set <<<"$config"
  tarball="$tarballs/kokkos-$version.tar.gz"
  if [ -z "$set" ] && [ "$std" = cuda ]; then
    set=suite
    [ "$set_kind" = representative ] && set=compile_check
  elif [ -z "$set" ] && [ "$set_kind" = representative ]; then
    set=suite
  fi
  case "$set" in
    "") target=all tests=(-E '^(cuda|compile_fail|install):') ;;
    suite) target=kt_representative_set tests=(-R '^[a-z_]+/|^cuda: (cuBLAS|NCCL) adapter|^examples: fashion_mnist') ;;
    compile_check) target=kt_compile_check_set tests=(-R '^(tensor|functional)/|^cuda: (cuBLAS|NCCL) adapter|^examples: fashion_mnist') ;;
    library|example) target=kt_${set}_check_set tests=(-R '^cuda: (cuBLAS|NCCL) adapter|^examples: fashion_mnist') ;;
    *) summary+=("$config: no set '$set' (suite, compile_check, library or example)")
       continue ;;
  esac
  if [ "$std" = cuda ]; then
    name="Kokkos $version with Cuda, C++17 (nvcc)"
    setup_args=(--kokkos="$tarball" --cuda)
    prefix="$root/.deps/kokkos-$version-cuda"
    host_opt=-O1
    [ "$set" = suite ] || host_opt=-O0
    kt_args=(-DCMAKE_CXX_COMPILER="$prefix/bin/nvcc_wrapper" "-DCMAKE_CXX_FLAGS_RELEASE=$host_opt -DNDEBUG" -DKT_MARCH=)
  else
    if [ "$version" = 3.4.01 ]; then
      # Debian's Kokkos as a user's distribution has it: built as C++17 by setup.sh's default,
      # from trilinos' source package (no tarball), used by kt compiled as C++STD.
      name="Kokkos 3.4.01 (built as C++17), kt as C++$std"
      setup_args=()
      prefix="$root/.deps/kokkos"
      tarball=/dev/null
    else
      name="Kokkos $version, C++$std"
      setup_args=(--kokkos="$tarball" --std="$std")
      prefix="$root/.deps/kokkos-$version"
      [ "$std" = 17 ] || prefix="$prefix-cxx$std"
    fi
    kt_args=(-DCMAKE_CXX_STANDARD="$std")
    [ -n "$set" ] && kt_args+=("-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG" -DKT_MARCH=)
  fi
  [ -n "$set" ] && name="$name, $set"
  if [ ! -e "$tarball" ]; then
    summary+=("$name: skipped (no $tarball)")
    continue
  fi
  if [ "$std" = cuda ] && ! command -v nvcc >/dev/null; then
    summary+=("$name: skipped (no nvcc on PATH)")
    continue
  fi
  # Kokkos 4 links its Cuda programs with the driver library (libcuda.so.1), which only a
  # machine with an NVIDIA driver has: elsewhere the toolkit's stub stands in for it, so that
  # the tests load, list their cases and report "skipped: no GPU".
  if [ "$std" = cuda ] && ! ldconfig -p | grep -q 'libcuda\.so\.1 '; then
    stub_dir="$build_root/libcuda-stub"
    mkdir -p "$stub_dir"
    ln -sf "$(dirname "$(command -v nvcc)")/../lib64/stubs/libcuda.so" "$stub_dir/libcuda.so.1"
    export LD_LIBRARY_PATH="$stub_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"  # for the lines after it too: harmless
  fi
  t0=$(date +%s)
  # Lines may run at once (ctest -j), and their set-ups share .deps: --cuda builds the host
  # Kokkos of its version too, the one a host line builds. They take turns (util-linux flock).
  mkdir -p "$root/.deps"
  if ! KT_SKIP_APT=1 flock "$root/.deps/.setup.lock" "$root/scripts/setup.sh" "${setup_args[@]}" \
       >"$build_root-$version-$std-setup.log" 2>&1; then
    summary+=("$name: Kokkos did not build ($build_root-$version-$std-setup.log)")
    continue
  fi
  dir="$build_root/kokkos-$version-cxx$std"
  [ "$std" = cuda ] && dir="$build_root/kokkos-$version-cuda"
  t1=$(date +%s)
  use_compiled=ON
  [ "$set" = example ] && use_compiled=OFF
  if ! { cmake -S "$root" -B "$dir" -DKokkos_ROOT="$prefix" "${kt_args[@]}" -DKT_ENABLE_BENCHMARKS=OFF \
           -DKT_USE_COMPILED=$use_compiled -DKT_CUDA_KOKKOS_ROOT=/nonexistent -DKT_SANITIZE_CHECK=OFF -DKT_KOKKOS_MATRIX= >"$dir.log" 2>&1 &&
         cmake --build "$dir" -j "$jobs" --target "$target" >>"$dir.log" 2>&1; }; then
    summary+=("$name: kt did not build (tail of $dir.log: $(grep -m1 'error' "$dir.log"))")
    continue
  fi
  t2=$(date +%s)
  OMP_PROC_BIND=false OMP_PLACES=threads ctest --test-dir "$dir" -j "$jobs" "${tests[@]}" >"$dir-ctest.log" 2>&1
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
