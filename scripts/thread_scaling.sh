#!/usr/bin/env bash
# Thread scaling of kt on this host: the main example's epoch time (one epoch, --workers 0)
# and bench_train's 784-512-512-10/b256 SGD step, at 1, 2, 4, 8, 16 ... threads up to the cores
# this process may use (or the counts given), one process per count (Kokkos sizes its pool at
# start-up). The scaling check: the epoch must not grow from 8 to 16 threads on a
# 16-core node, with any BLAS.
#
#   scripts/thread_scaling.sh [BUILD_DIR=build] [COUNTS="1 2 4 8 16"]
#   BLAS=pthread scripts/thread_scaling.sh   # against Debian's pthreads OpenBLAS instead
#   BUSY=1 scripts/thread_scaling.sh         # while N busy loops (other jobs) hold cores
#   DATA=DIR scripts/thread_scaling.sh       # Fashion-MNIST from DIR (the example's --data)
#
# The epoch is measured twice: with the OpenMP runtime's default wait policy (threads spin a
# while at each join) and with OMP_WAIT_POLICY=passive (they sleep at once). On a core shared
# with another process the spinning costs more than the thread brings (docs/performance.md,
# "A core shared with another process").
#
# Needs: cmake --build build --target fashion_mnist bench_train
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build}
cores=$(nproc)
counts=${2:-$(for t in 1 2 4 8 16 32 64 128; do [ "$t" -le "$cores" ] && echo "$t"; done)}
example="$build/examples/fashion_mnist/fashion_mnist"
bench="$build/bench/bench_train"
[ -x "$example" ] || { echo "thread_scaling: $example is not built" >&2; exit 2; }
if [ "${BLAS:-}" = pthread ]; then
  export LD_LIBRARY_PATH="/usr/lib/$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)/openblas-pthread${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
export OMP_PROC_BIND=false OMP_PLACES=threads

busy_pids=()
for _ in $(seq 1 "${BUSY:-0}"); do (while :; do :; done) & busy_pids+=($!); done
trap '[ ${#busy_pids[@]} -eq 0 ] || kill "${busy_pids[@]}" 2>/dev/null' EXIT
[ "${BUSY:-0}" -eq 0 ] || echo "(${BUSY} busy loops running)"

epoch_s() {
  "$example" --epochs 1 --threads "$1" --workers 0 --summary none ${DATA:+--data "$DATA"} | sed -n 's/.*training time \([0-9.]*\) s$/\1/p'
}
echo "| threads | example epoch s (1 epoch, 0 workers) | same, OMP_WAIT_POLICY=passive | bench_train 784-512-512-10/b256 SGD ms/step |"
echo "|---|---|---|---|"
for t in $counts; do
  epoch=$(epoch_s "$t")
  passive=$(OMP_WAIT_POLICY=passive epoch_s "$t")
  step="—"
  if [ -x "$bench" ]; then
    step=$("$bench" --threads="$t" --benchmark_filter='784-512-512-10/batch:256/kt/' --benchmark_repetitions=3 \
             --benchmark_report_aggregates_only=true 2>/dev/null | awk '/_median/ {print $2; exit}')
  fi
  echo "| $t | $epoch | $passive | ${step:-—} |"
done
