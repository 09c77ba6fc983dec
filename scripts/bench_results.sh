#!/usr/bin/env bash
# Runs kt's benchmarks and writes each one's output to a result file stamped with what
# produced it: bench/results/<cpu>/<benchmark>.txt, where <cpu> names the processor (vendor,
# family, model: the same CPU writes the same folder, another CPU its own). The header of a
# file says the date, CPU, cores, compiler, kt commit (and whether the tree had changes),
# Kokkos and BLAS; the benchmark's own context lines and summary follow. docs/performance.md
# quotes these files. Run on an idle machine: the figures are only as quiet as the cores.
#
#   scripts/bench_results.sh [BUILD_DIR=build] [BENCHMARK ...]    (default: every benchmark)
#   BENCH_ARGS="--benchmark_repetitions=3" scripts/bench_results.sh build bench_gemm
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-build}
shift || true
[ -d "$build/bench" ] || { echo "bench_results.sh: $build/bench does not exist (build the benchmarks first)" >&2; exit 2; }
benchmarks=("$@")
if [ ${#benchmarks[@]} -eq 0 ]; then
  mapfile -t benchmarks < <(find "$build/bench" -maxdepth 1 -type f -executable -name 'bench_*' -printf '%f\n' | sort)
fi

cpu_model=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
cpu_family=$(grep -m1 '^cpu family' /proc/cpuinfo | cut -d: -f2 | tr -d ' ')
cpu_number=$(grep -m1 '^model[[:space:]]*:' /proc/cpuinfo | cut -d: -f2 | tr -d ' ')
vendor=$(grep -m1 '^vendor_id' /proc/cpuinfo | cut -d: -f2 | tr -d ' ')
slug=$(echo "${vendor}-family${cpu_family}-model${cpu_number}" | tr 'A-Z' 'a-z')
compiler=$(grep -m1 '^CMAKE_CXX_COMPILER:' "$build/CMakeCache.txt" | cut -d= -f2)
compiler_version=$("$compiler" --version 2>/dev/null | head -1 || echo unknown)
commit=$(git -C "$root" rev-parse --short HEAD)
git -C "$root" diff --quiet HEAD -- include bench || commit="$commit (with uncommitted changes)"
out="$root/bench/results/$slug"
mkdir -p "$out"

for name in "${benchmarks[@]}"; do
  exe="$build/bench/$name"
  [ -x "$exe" ] || { echo "bench_results.sh: no benchmark $exe" >&2; exit 2; }
  launcher=()
  if [ "$name" = bench_dist ]; then  # 2 ranks, one thread each, as the test suite runs it
    launcher=(env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
              OMPI_MCA_btl_vader_single_copy_mechanism=none mpiexec --oversubscribe -n 2)
  fi
  tmp=$(mktemp "$out/.$name.XXXXXX")
  {
    echo "# $name"
    echo "date:     $(date -u +%Y-%m-%dT%H:%MZ)"
    echo "cpu:      $cpu_model (family $cpu_family, model $cpu_number), $(nproc) logical cores"
    echo "compiler: $compiler_version"
    echo "kt:       commit $commit"
    echo "command:  ${launcher[*]:+${launcher[*]} }$name --benchmark_color=false ${BENCH_ARGS:-}"
    echo
  } >"$tmp"
  echo "bench_results.sh: running $name" >&2
  OMP_PROC_BIND=${OMP_PROC_BIND:-false} OMP_PLACES=${OMP_PLACES:-threads} \
    "${launcher[@]}" "$exe" --benchmark_color=false ${BENCH_ARGS:-} >>"$tmp" 2>&1 || { echo "bench_results.sh: $name failed (output: $tmp)" >&2; exit 1; }
  mv "$tmp" "$out/$name.txt"  # whole files only
done
echo "bench_results.sh: results in ${out#$root/}/" >&2
