#!/usr/bin/env bash
# kt's examples/fashion_mnist beside its PyTorch twin (scripts/fashion_mnist_pytorch.py: same
# data, model, optimizer, batch and epochs), interleaved ROUNDS times on THREADS threads, and
# the ratio of the medians of training time, for every PyTorch it finds:
#  - Debian's python3-torch (1.13, on Debian's OpenBLAS), in /usr/bin/python3;
#  - PyTorch 2.x (MKL/oneDNN), from the interpreter PYTORCH2 names — a benchmark-only venv:
#      python3 -m venv ~/torch2 && ~/torch2/bin/pip install torch numpy   # ~3 GB with CUDA wheels
#      PYTORCH2=~/torch2/bin/python scripts/compare_pytorch.sh
#    kt itself never depends on it.
# It prints the machine (CPU model, OpenBLAS' kernel family, kt's back-ends), the compiler and
# commit of the build, each round, and the medians; with no PyTorch at all it reports
# "skipped" and exits 0.
#
#   [EPOCHS=10] [PYTORCH2=python] scripts/compare_pytorch.sh [BUILD_DIR=build] [ROUNDS=3] [THREADS=2] [-- extra example options]
#
# Needs the example built: cmake --build build --target fashion_mnist.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-build}
rounds=${2:-3}
threads=${3:-2}
epochs=${EPOCHS:-10}
shift $(($# < 3 ? $# : 3))
[ "${1:-}" = "--" ] && shift
example="$build/examples/fashion_mnist/fashion_mnist"
[ -x "$example" ] || { echo "compare_pytorch: $example is not built (cmake --build $build --target fashion_mnist)" >&2; exit 2; }

# The PyTorch interpreters to compare with: Debian's, and PYTORCH2's when set.
pythons=() names=()
add_python() {
  local python=$1 version
  if version=$("$python" -c 'import torch; print(torch.__version__)' 2>/dev/null); then
    pythons+=("$python") names+=("PyTorch $version")
  else
    echo "compare_pytorch: $python has no torch: left out" >&2
  fi
}
[ -x /usr/bin/python3 ] && add_python /usr/bin/python3
[ -n "${PYTORCH2:-}" ] && add_python "$PYTORCH2"
if [ ${#pythons[@]} -eq 0 ]; then
  echo "skipped: no PyTorch (apt-get install python3-torch, or PYTORCH2=<a venv's python with torch 2.x>)"
  exit 0
fi
export OMP_PROC_BIND=false OMP_PLACES=threads

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
family=$(sed -n 's/^cpu family[[:space:]]*: //p' /proc/cpuinfo | head -1)
model=$(sed -n 's/^model[[:space:]]*: //p' /proc/cpuinfo | head -1)
compiler=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt" | head -1)
echo "machine: $cpu (family $family model $model), $(nproc) CPUs; $threads threads; $epochs epochs"
echo "build: $build, $("${compiler:-c++}" --version 2>/dev/null | head -1), commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"

seconds() { sed -n 's/^Final test accuracy \([0-9.]*\)% after [0-9]* epochs\{0,1\}, training time \([0-9.]*\) s$/\2 \1/p'; }
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
kt_times=()
declare -A torch_times
for ((r = 1; r <= rounds; ++r)); do
  out=$(OMP_NUM_THREADS=$threads "$example" --threads "$threads" --epochs "$epochs" --summary /dev/null "$@" 2>&1)
  [ "$r" -eq 1 ] && grep '^matrix products' <<<"$out" || true
  read -r kt acc_kt < <(seconds <<<"$out")
  line="round $r: kt ${kt} s (${acc_kt}%)"
  kt_times+=("$kt")
  for i in "${!pythons[@]}"; do
    read -r pt acc_pt < <(OMP_NUM_THREADS=$threads "${pythons[$i]}" "$root/scripts/fashion_mnist_pytorch.py" \
                            --threads "$threads" --epochs "$epochs" | seconds)
    line+=", ${names[$i]} ${pt} s (${acc_pt}%)"
    torch_times[$i]="${torch_times[$i]:-} $pt"
  done
  echo "$line"
done
kt_median=$(median "${kt_times[@]}")
for i in "${!pythons[@]}"; do
  # shellcheck disable=SC2086 # the times are one word each
  torch_median=$(median ${torch_times[$i]})
  awk -v k="$kt_median" -v p="$torch_median" -v n="${names[$i]}" 'BEGIN {
    printf "medians: kt %.2f s, %s %.2f s: PyTorch / kt = %.2f\n", k, n, p, p / k }'
done
