#!/usr/bin/env bash
# kt's check on a GPU machine, in two halves: build here, run there.
#
#   scripts/gpu_check.sh pack [BUNDLE]   # here: Kokkos-Cuda set-up, the Cuda build, and a bundle
#                                        # (default gpu-bundle/, git-ignored) holding only the
#                                        # test, example and benchmark binaries, Fashion-MNIST,
#                                        # and this script
#   scripts/gpu_check.sh run [BUNDLE] [OUT]   # there: the whole Cuda test suite, the main
#                                        # example on Cuda (>= 88% expected), the Cuda benchmarks;
#                                        # logs and JSON results in OUT (default $OUT or ./gpu-out)
#
# The GPU machine needs no compiler and no network: the binaries are built here (Kokkos-Cuda
# links statically) and find the CUDA runtime and cuBLAS there (their folder is added to
# LD_LIBRARY_PATH). GPU architecture: scripts/setup.sh --cuda=ARCH (default HOPPER90).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mode="${1:-}"
bundle="${2:-$root/gpu-bundle}"

pack() {
  "$root/scripts/setup.sh" --cuda
  local build="$root/build-cuda"
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DKokkos_ROOT="$root/.deps/kokkos-cuda" \
    -DCMAKE_CXX_COMPILER="$root/.deps/kokkos-cuda/bin/nvcc_wrapper" -DKT_ENABLE_BENCHMARKS=ON >/dev/null
  cmake --build "$build" -j "$(nproc)"
  rm -rf "$bundle" && mkdir -p "$bundle/tests" "$bundle/examples" "$bundle/bench" "$bundle/data"
  cp "$build"/tests/kt_tests_* "$bundle/tests/"
  for e in "$build"/examples/*/; do
    name=$(basename "$e")
    [ -x "$e/$name" ] && cp "$e/$name" "$bundle/examples/"
  done
  cp "$build"/bench/bench_* "$bundle/bench/" 2>/dev/null || true
  rm -f "$bundle"/bench/*.cpp
  cp /usr/share/datasets/fashion-mnist/*.gz "$bundle/data/"
  cp "$root/scripts/gpu_check.sh" "$bundle/"
  strip --strip-debug "$bundle"/tests/* "$bundle"/examples/* "$bundle"/bench/* 2>/dev/null || true
  du -sh "$bundle"
}

run() {
  local out="${3:-${OUT:-$PWD/gpu-out}}"
  mkdir -p "$out"
  # CUDA 13's runtime and cuBLAS are installed on the GPU machine but not on the default path.
  local lib
  lib=$(find / -name 'libcublas.so.13*' -not -path '*/proc/*' 2>/dev/null | head -n 1 || true)
  [ -n "$lib" ] && export LD_LIBRARY_PATH="$(dirname "$lib")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export OMP_PROC_BIND=false OMP_PLACES=threads
  nvidia-smi -L >"$out/gpu.txt" 2>&1 || true
  local failed=0
  for t in "$bundle"/tests/kt_tests_*; do
    name=$(basename "$t")
    if "$t" >"$out/$name.log" 2>&1; then echo "pass  $name"; else echo "FAIL  $name"; failed=1; fi
    grep -E "test cases:|skipped" "$out/$name.log" | tail -n 1
  done
  for e in "$bundle"/examples/*; do
    name=$(basename "$e")
    [ "$name" = fashion_mnist ] && continue
    if "$e" >"$out/example_$name.log" 2>&1; then echo "pass  example $name"; else echo "FAIL  example $name"; failed=1; fi
  done
  local fm="$bundle/examples/fashion_mnist"
  "$fm" --device cuda --data "$bundle/data" --summary "$out/fashion_mnist_cuda.json" | tee "$out/fashion_mnist_cuda.log" | tail -n 3
  CUDA_LAUNCH_BLOCKING=1 "$fm" --device cuda --data "$bundle/data" --epochs 2 --summary none \
    >"$out/fashion_mnist_cuda_blocking.log" 2>&1 || failed=1
  "$fm" --device serial --threads 1 --data "$bundle/data" --epochs 2 --summary none \
    >"$out/fashion_mnist_serial.log" 2>&1 || failed=1
  for b in "$bundle"/bench/bench_*; do
    name=$(basename "$b")
    "$b" --benchmark_filter="${KT_GPU_BENCH_FILTER:-Cuda|cuda}" --benchmark_min_time=0.2 \
      --benchmark_out="$out/$name.json" --benchmark_out_format=json >"$out/$name.log" 2>&1 || failed=1
  done
  echo "logs in $out"
  return $failed
}

case "$mode" in
  pack) pack ;;
  run) run "$@" ;;
  *) sed -n '2,15p' "${BASH_SOURCE[0]}"; exit 2 ;;
esac
