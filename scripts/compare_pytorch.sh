#!/usr/bin/env bash
# kt's examples/fashion_mnist beside its PyTorch twin (scripts/fashion_mnist_pytorch.py: same
# data, model, optimizer, batch and epochs), interleaved ROUNDS times on THREADS threads, and
# the ratio of their medians of training time. PyTorch is Debian's python3-torch (1.13); when
# it is missing the comparison reports "skipped" and exits 0.
#
#   [EPOCHS=10] scripts/compare_pytorch.sh [BUILD_DIR=build] [ROUNDS=3] [THREADS=2] [-- extra example options]
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
python=/usr/bin/python3  # Debian's interpreter: python3-torch installs into it
[ -x "$python" ] || python=python3
if ! "$python" -c "import torch" 2>/dev/null; then
  echo "skipped: python3-torch is not installed (apt-get install python3-torch)"
  exit 0
fi
export OMP_PROC_BIND=false OMP_PLACES=threads

seconds() { sed -n 's/^Final test accuracy \([0-9.]*\)% after [0-9]* epochs\{0,1\}, training time \([0-9.]*\) s$/\2 \1/p'; }
kt_times=() torch_times=()
for ((r = 1; r <= rounds; ++r)); do
  read -r kt acc_kt < <(OMP_NUM_THREADS=$threads "$example" --threads "$threads" --epochs "$epochs" --summary /dev/null "$@" | seconds)
  read -r pt acc_pt < <(OMP_NUM_THREADS=$threads "$python" "$root/scripts/fashion_mnist_pytorch.py" --threads "$threads" --epochs "$epochs" | seconds)
  echo "round $r: kt ${kt} s (${acc_kt}%), PyTorch $("$python" -c 'import torch; print(torch.__version__)') ${pt} s (${acc_pt}%)"
  kt_times+=("$kt") torch_times+=("$pt")
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
kt_median=$(median "${kt_times[@]}") torch_median=$(median "${torch_times[@]}")
awk -v k="$kt_median" -v p="$torch_median" -v t="$threads" 'BEGIN {
  printf "medians on %d threads: kt %.2f s, PyTorch %.2f s: kt is %.2fx faster (target >= 2)\n", t, k, p, p / k }'
