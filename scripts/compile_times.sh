#!/usr/bin/env bash
# Compile time as a user meets it: cold builds (no ccache, fresh build trees) of
#   hello          a 20-line program that includes kt/kt.hpp and runs one Linear forward
#   fashion_mnist  the main example
#   kt_tests_nn    one test layer (doctest, every device)
# each header-only (kt::kt) — hello as a user's build has it, without autocast's 16-bit paths,
# and with them (-DKT_AUTOCAST=ON: "autocast on"); the example, which autocasts, with them and
# without (-DKT_AUTOCAST=OFF: "autocast off") — and with kt::kt_compiled (the "+ compiled"
# rows: the library is built first, untimed, as a user's build does once — for the test layer,
# the tests' own instance; its own row times the library alone, with the precompiled kt headers
# that programs linking it reuse on the host: kt_compiled_pch, which the example uses),
# for the host (Kokkos in .deps/kokkos, -O3) and, when scripts/setup.sh --cuda installed
# Kokkos with Cuda, with nvcc (.deps/kokkos-cuda's nvcc_wrapper). Prints one table row per
# target and compiler: wall seconds and the peak resident memory of the build (the largest
# compiler process). Run it on an idle machine: a busy core stretches every figure.
#
#   [JOBS=2] [COMPILERS="host nvcc"] [ROWS=REGEX] scripts/compile_times.sh [WORK_DIR=/tmp/kt-compile-times]
#
# ROWS (a bash regular expression) keeps the rows whose target name matches it, e.g.
# ROWS='^fashion_mnist' for the example's three.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=${1:-/tmp/kt-compile-times}
jobs=${JOBS:-2}
compilers=" ${COMPILERS:-host nvcc} "
rm -rf "$work"
mkdir -p "$work/hello"
export CCACHE_DISABLE=1  # ccache, when the build finds it, then only runs the compiler

cat >"$work/hello/main.cpp" <<'EOF'
#include <kt/kt.hpp>

#include <iostream>

int main(int argc, char* argv[]) {
  kt::Runtime runtime(argc, argv);
  using D = kt::DefaultDevice;
  kt::nn::Linear<float, D> layer(784, 10);
  const auto x = kt::randn<float, D>({32, 784}, /*seed=*/0);
  const auto y = layer(x);
  std::cout << "hello: y is " << y.data().shape().str() << " on " << kt::device_name<D>() << "\n";
  return 0;
}
EOF
cat >"$work/hello/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.16)
project(kt_hello LANGUAGES CXX)
set(KT_ENABLE_TESTS OFF)
set(KT_ENABLE_EXAMPLES OFF)
set(KT_ENABLE_BENCHMARKS OFF)
add_subdirectory("$root" kt)
add_executable(hello main.cpp)
if(KT_USE_COMPILED)
  target_link_libraries(hello PRIVATE kt::kt_compiled)
else()
  target_link_libraries(hello PRIVATE kt::kt)
endif()
EOF

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
echo "machine: $cpu, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $jobs build jobs"
echo "compilers: $(c++ --version | head -1); $(nvcc --version 2>/dev/null | tail -1 || echo 'no nvcc')"
echo "commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo
echo "| target | compiler | seconds | peak RSS MiB |"
echo "|---|---|---|---|"

# time_build NAME COMPILER_LABEL SOURCE_DIR TARGETS CMAKE_ARGS...: with BEFORE=targets in the
# environment, those are built first, untimed (TARGETS and BEFORE: space-separated names).
time_build() {
  local name=$1 label=$2 src=$3 target=$4
  shift 4
  [[ -z ${ROWS:-} || $name =~ $ROWS ]] || return 0
  local dir="$work/build-${name// /}-$label"
  cmake -S "$src" -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@" >"$dir.configure.log" 2>&1 ||
    { echo "| $name | $label | configure failed ($dir.configure.log) | |"; return; }
  if [ -n "${BEFORE:-}" ]; then
    cmake --build "$dir" -j "$jobs" --target $BEFORE >"$dir.before.log" 2>&1 ||
      { echo "| $name | $label | building $BEFORE failed ($dir.before.log) | |"; return; }
  fi
  local t0 t1 rss
  t0=$(date +%s.%N)
  /usr/bin/time -f "%M" -o "$dir.rss" cmake --build "$dir" -j "$jobs" --target $target >"$dir.build.log" 2>&1 ||
    { echo "| $name | $label | build failed ($dir.build.log) | |"; return; }
  t1=$(date +%s.%N)
  # GNU time reports the largest process it waited for; make's children are counted through
  # RUSAGE_CHILDREN, so this is the largest compiler or linker process.
  rss=$(tail -1 "$dir.rss")
  awk -v n="$name" -v l="$label" -v a="$t0" -v b="$t1" -v r="$rss" \
    'BEGIN { printf "| %s | %s | %.1f | %.0f |\n", n, l, b - a, r / 1024 }'
}

# time_all COMPILER_LABEL CMAKE_ARGS...: every row for one compiler.
time_all() {
  local label=$1
  shift
  local kt=(-DKT_ENABLE_BENCHMARKS=OFF -DKT_ENABLE_EXAMPLES=OFF -DKT_ENABLE_TESTS=OFF)
  local library=kt_compiled  # and its precompiled headers, where the compiler reads them
  [ "$label" = host ] && library="kt_compiled kt_compiled_pch"
  time_build hello "$label" "$work/hello" hello "$@"
  time_build fashion_mnist "$label" "$root" fashion_mnist "$@" -DKT_ENABLE_BENCHMARKS=OFF
  time_build kt_tests_nn "$label" "$root" kt_tests_nn "$@" -DKT_ENABLE_BENCHMARKS=OFF -DKT_ENABLE_EXAMPLES=OFF \
    -DKT_TEST_USE_COMPILED=OFF
  time_build "hello, autocast on" "$label" "$work/hello" hello "$@" -DKT_AUTOCAST=ON
  time_build "fashion_mnist, autocast off" "$label" "$root" fashion_mnist "$@" -DKT_AUTOCAST=OFF \
    -DKT_ENABLE_BENCHMARKS=OFF -DKT_ENABLE_TESTS=OFF
  time_build "kt_compiled (the library)" "$label" "$root" "$library" "$@" "${kt[@]}"
  BEFORE=kt_compiled time_build "hello + compiled" "$label" "$work/hello" hello "$@" -DKT_USE_COMPILED=ON
  BEFORE=$library time_build "fashion_mnist + compiled" "$label" "$root" fashion_mnist "$@" \
    -DKT_ENABLE_BENCHMARKS=OFF -DKT_USE_COMPILED=ON
  BEFORE=kt_compiled_tests time_build "kt_tests_nn + compiled" "$label" "$root" kt_tests_nn "$@" \
    -DKT_ENABLE_BENCHMARKS=OFF -DKT_ENABLE_EXAMPLES=OFF -DKT_USE_COMPILED=ON
}

if [[ $compilers == *" host "* ]]; then
  time_all host -DKokkos_ROOT="$root/.deps/kokkos"
fi
cuda_root="$root/.deps/kokkos-cuda"
if [[ $compilers != *" nvcc "* ]]; then
  :
elif [ -x "$cuda_root/bin/nvcc_wrapper" ] && command -v nvcc >/dev/null; then
  cuda=(-DKokkos_ROOT="$cuda_root" -DCMAKE_CXX_COMPILER="$cuda_root/bin/nvcc_wrapper")
  time_all nvcc "${cuda[@]}"
else
  echo "| (nvcc) | | skipped: no nvcc or no .deps/kokkos-cuda (scripts/setup.sh --cuda) | |"
fi
