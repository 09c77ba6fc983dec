#!/usr/bin/env bash
# bench_train's training steps, kt beside its LibTorch twin, for several LibTorch builds at once:
# each BUILD_DIR is a kt build whose bench_train was configured against one LibTorch, and the
# builds run in turn, ROUNDS times (interleaved, so a change of the machine's speed hits all of
# them alike). Prints the machine (CPU model, OpenBLAS' kernel family, compiler, commit), each
# round's rows and, per LibTorch, the medians of kt's and LibTorch's ms/step and their ratio,
# for kt's eager step and for the same step through kt::StepGraph (recorded and replayed).
#
#   [THREADS=2] [FILTER=regex] [FLUSH_DENORMAL=1] scripts/compare_libtorch.sh [ROUNDS=3] BUILD_DIR...
#
# FLUSH_DENORMAL=1 runs every bench_train with --flush_denormal (subnormal floats flushed to zero
# in kt and LibTorch alike): the models train on one fixed batch, and once the loss nears zero
# subnormals slow the small steps by a share that depends on how many steps a run gets through
# (docs/performance.md, "Subnormal floats").
#
# The builds (bench_train only; the twin is a benchmark-only, optional dependency):
#   Debian's LibTorch 1.13 (apt-get install libtorch-dev; found by default):
#     cmake -S . -B build-lt1 -DKT_ENABLE_TESTS=OFF -DKT_ENABLE_EXAMPLES=OFF && cmake --build build-lt1 --target bench_train
#   PyTorch 2.x from PyPI (its wheel holds LibTorch; MKL and oneDNN on x86):
#     python3 -m venv ~/torch2 && ~/torch2/bin/pip install torch     # ~3 GB with the CUDA wheels
#     T=$(~/torch2/bin/python -c 'import torch, os; print(os.path.dirname(torch.__file__))')
#     cmake -S . -B build-lt2 -DKT_ENABLE_TESTS=OFF -DKT_ENABLE_EXAMPLES=OFF \
#       -DTorch_DIR=$T/share/cmake/Torch -DCaffe2_DIR=$T/share/cmake/Caffe2 -Dc10_LIBRARY=$T/lib/libc10.so \
#       -DCMAKE_EXE_LINKER_FLAGS=-Wl,--allow-shlib-undefined && cmake --build build-lt2 --target bench_train
#   (Caffe2_DIR and c10_LIBRARY keep CMake from taking Debian's copies when both are installed;
#   the wheel's CUDA libraries resolve at run time through its own RPATH.)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
rounds=3
if [[ "${1:-}" =~ ^[0-9]+$ ]]; then rounds=$1; shift; fi
[ $# -gt 0 ] || { echo "usage: [THREADS=2] [FILTER=regex] [FLUSH_DENORMAL=1] $0 [ROUNDS] BUILD_DIR..." >&2; exit 2; }
threads=${THREADS:-2}
flush=() subnormals=kept
if [ "${FLUSH_DENORMAL:-0}" = 1 ]; then flush=(--flush_denormal) subnormals=flushed; fi
filter=${FILTER:-'^train/(784-512-512-10/batch:256|64-64-64-10/batch:32)/(adam/)?(graph/)?(kt|libtorch)/'}
for build in "$@"; do
  [ -x "$build/bench/bench_train" ] || { echo "compare_libtorch: $build/bench/bench_train is not built" >&2; exit 2; }
done
export OMP_PROC_BIND=false OMP_PLACES=threads

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
family=$(sed -n 's/^cpu family[[:space:]]*: //p' /proc/cpuinfo | head -1)
model=$(sed -n 's/^model[[:space:]]*: //p' /proc/cpuinfo | head -1)
core=$(OPENBLAS_VERBOSE=2 "$1/bench/bench_train" --benchmark_list_tests 2>&1 | sed -n 's/^Core: //p' | head -1)
compiler=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$1/CMakeCache.txt" | head -1)
echo "machine: $cpu (family $family model $model), $(nproc) CPUs; OpenBLAS core ${core:-unknown}; $threads threads; subnormals $subnormals"
echo "compiler: $("${compiler:-c++}" --version 2>/dev/null | head -1); commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"

# Rows of bench_train's summary table: | MLP | batch | optimizer | LibTorch ms | . | kt ms | . | ratio |
# target | kt StepGraph ms | ...
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
for ((r = 1; r <= rounds; ++r)); do
  for build in "$@"; do
    out=$(KT_BLAS_NOTICE=0 "$build/bench/bench_train" --threads="$threads" "${flush[@]}" --benchmark_filter="$filter" 2>&1)
    version=$(sed -n 's/^libtorch: \([^,]*\),.*/\1/p' <<<"$out" | head -1)
    [ "$r" -eq 1 ] && echo "$build: LibTorch ${version:-not built in}"
    # ms/step from the samples/s columns, the StepGraph's as printed (4 significant digits)
    grep -E '^\| [0-9]' <<<"$out" | awk -F'|' -v v="${version:-none}" -v r="$r" '$7 !~ /—/ {
      gsub(/ /, "", $2); gsub(/ /, "", $3); gsub(/^ +| +$/, "", $4); gsub(/ /, "", $11)
      lt = $6 ~ /—/ ? "—" : sprintf("%.4g", 1e3 * $3 / $6); kt = sprintf("%.4g", 1e3 * $3 / $8)
      graph = $11 ~ /—/ ? "" : ", kt graph " $11 " ms"
      printf "round %d, LibTorch %s: %s b%s %s: LibTorch %s ms, kt %s ms%s\n", r, v, $2, $3, $4, lt, kt, graph }' | tee -a "$rows"
  done
done
echo "medians over $rounds rounds (ms/step):"
awk '{
  split($0, h, ": "); key = h[1] ": " h[2]; sub(/^round [0-9]+, /, "", key)
  match($0, /LibTorch [0-9.]+ ms/); lt = substr($0, RSTART + 9, RLENGTH - 12)
  match($0, /kt [0-9.]+ ms/); kt = substr($0, RSTART + 3, RLENGTH - 6)
  g = match($0, /kt graph [0-9.]+ ms/) ? substr($0, RSTART + 9, RLENGTH - 12) : 0
  n[key]++; L[key, n[key]] = lt; K[key, n[key]] = kt; G[key, n[key]] = g
  if (!(key in seen)) { seen[key] = 1; order[++keys] = key }
} function med(A, key, c,   i, j, t, v) {
  for (i = 1; i <= c; ++i) v[i] = A[key, i] + 0
  for (i = 1; i <= c; ++i) for (j = i + 1; j <= c; ++j) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
  return c % 2 ? v[(c + 1) / 2] : (v[c / 2] + v[c / 2 + 1]) / 2
} END {
  for (i = 1; i <= keys; ++i) {
    key = order[i]; lt = med(L, key, n[key]); kt = med(K, key, n[key]); g = med(G, key, n[key])
    graph = g > 0 ? sprintf("; kt StepGraph %.4g", g) : ""
    if (lt > 0 && g > 0) graph = graph sprintf(": LibTorch / kt StepGraph = %.2f", lt / g)
    if (lt > 0) printf "  %s: LibTorch %.4g, kt %.4g: LibTorch / kt = %.2f%s\n", key, lt, kt, lt / kt, graph
    else printf "  %s: kt %.4g%s\n", key, kt, graph
  }
}' "$rows"
