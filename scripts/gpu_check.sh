#!/usr/bin/env bash
# kt's check on a GPU machine, in two halves: build here, run there.
#
#   scripts/gpu_check.sh pack [BUNDLE]        # here: Kokkos-Cuda set-up, the Cuda build (BUILD,
#                                             # default build-cuda) and BUNDLE.tar.xz (default
#                                             # gpu-bundle, git-ignored): the test, example and
#                                             # benchmark binaries, Fashion-MNIST, the shared
#                                             # libraries they need beyond CUDA's, this script
#   scripts/gpu_check.sh run [BUNDLE] [OUT]   # there: unpacks BUNDLE.tar.xz when BUNDLE is
#                                             # absent, then the main example on Cuda (fp32, bf16
#                                             # and fp16 autocast; graph and eager steps), the GPU
#                                             # benchmarks, the whole Cuda test suite, the host's
#                                             # thread scaling with the OpenMP and pthreads
#                                             # OpenBLAS, and PyTorch's twins on the same GPU;
#                                             # OUT/run.log and every log in OUT/logs.tgz;
#                                             # PHASES="tests scaling ..." runs only those
#
# The GPU machine needs no compiler and no network: the binaries are built here (Kokkos-Cuda
# links statically, host code for -march=x86-64-v3 so that any x86-64 host with AVX2 runs it)
# and find CUDA's runtime, cuBLAS and NCCL there (their folders go on LD_LIBRARY_PATH); the
# other shared libraries (OpenBLAS, MPI, ...) travel in BUNDLE/lib. Every step has a time
# limit, so one hang costs minutes, not the whole device time. GPU architecture: scripts/setup.sh
# --cuda=ARCH (default HOPPER90).
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mode="${1:-}"
bundle="${2:-$root/gpu-bundle}"

# The targets a GPU run needs (kt::dist's tests need mpiexec and several ranks: not here);
# TARGETS="..." packs only those (when the device time is for one part of them).
targets="${TARGETS:-fashion_mnist custom_kernel custom_op device_query eigen_interop regression
  bench_mixed_gemm bench_train bench_loader bench_linear bench_evaluator
  kt_tests_amp kt_tests_autograd kt_tests_backend kt_tests_core kt_tests_cuda_cublas kt_tests_cuda_problem
  kt_tests_data kt_tests_functional kt_tests_interop kt_tests_io kt_tests_nn kt_tests_optim kt_tests_runtime
  kt_tests_tensor}"

pack() {
  set -e
  "$root/scripts/setup.sh" --cuda
  local build="${BUILD:-$root/build-cuda}"
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DKokkos_ROOT="$root/.deps/kokkos-cuda" \
    -DCMAKE_CXX_COMPILER="$root/.deps/kokkos-cuda/bin/nvcc_wrapper" -DKT_ENABLE_BENCHMARKS=ON \
    "-DCMAKE_CXX_FLAGS_RELEASE=-O3 -DNDEBUG" \
    -DKT_MARCH=x86-64-v3 -DKT_BENCH_LIBTORCH=OFF >/dev/null
  # shellcheck disable=SC2086
  cmake --build "$build" -j "$(nproc)" --target $targets
  rm -rf "$bundle" && mkdir -p "$bundle"/{tests,examples,bench,data,lib,lib-pthread}
  for t in $targets; do
    case $t in
      bench_*) cp "$build/bench/$t" "$bundle/bench/" ;;
      kt_tests_*) find "$build/tests" -maxdepth 2 -type f -name "$t" -exec cp {} "$bundle/tests/" \; ;;
      *) cp "$build/examples/$t/$t" "$bundle/examples/" ;;
    esac
  done
  cp /usr/share/datasets/fashion-mnist/*.gz "$bundle/data/"
  cp "$root/scripts/gpu_check.sh" "$root/scripts/train_step_pytorch.py" "$bundle/"
  # The figures' provenance: commit (with "+dirty" for uncommitted changes) and compilers.
  { echo "commit $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- include examples bench tests || echo +dirty)"
    echo "nvcc $(nvcc --version | tail -n 2 | head -n 1)"; echo "host compiler $(g++ --version | head -n 1)"
  } >"$bundle/BUILD_INFO"
  local binaries
  binaries=$(find "$bundle"/tests "$bundle"/examples "$bundle"/bench -type f)  # (TARGETS may leave a folder empty)
  # shellcheck disable=SC2086
  strip --strip-unneeded $binaries
  # Shared libraries beyond the C runtime and CUDA's (found there): OpenBLAS, gfortran, MPI, ...
  # shellcheck disable=SC2086
  ldd $binaries | awk '/=> \// {print $3}' | sort -u |
    grep -v -E '/(libc|libm|libdl|librt|libpthread|libstdc\+\+|libgcc_s|ld-linux[^/]*)\.so|/usr/local/' |
    xargs -r -I{} cp -L {} "$bundle/lib/"
  local multiarch
  multiarch=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
  cp -L "/usr/lib/$multiarch/openblas-pthread/libopenblas.so.0" "$bundle/lib-pthread/"
  tar -C "$(dirname "$bundle")" -cf - "$(basename "$bundle")" | xz -T0 -6 >"$bundle.tar.xz"
  du -sh "$bundle" "$bundle.tar.xz"
}

# step LIMIT_S NAME COMMAND...: runs COMMAND with a time limit, its output in $work/NAME.log;
# one line per step in run.log.
step() {
  local limit=$1 name=$2
  shift 2
  local start=$SECONDS rc=0
  timeout -k 5 "$limit" "$@" >"$work/$name.log" 2>&1 || rc=$?
  printf '%-6s %-40s %4ss rc=%s\n' "$([ $rc = 0 ] && echo pass || echo FAIL)" "$name" $((SECONDS - start)) "$rc" |
    tee -a "$work/steps.txt"
  return 0
}

run() {
  local out="${3:-${OUT:-$PWD/gpu-out}}"
  mkdir -p "$out"
  work=$(mktemp -d)
  if [ ! -d "$bundle" ] && [ -f "$bundle.tar.xz" ]; then
    tar -C "$(dirname "$bundle")" -xJf "$bundle.tar.xz"
  fi
  exec > >(tee "$out/run.log") 2>&1
  # CUDA 13's runtime, cuBLAS and NCCL are installed on the GPU machine but not on the default path.
  local dirs
  dirs=$(find / \( -path /proc -o -path /sys -o -path "$bundle" \) -prune -o \( -name 'libcublas.so.13*' -o -name 'libcudart.so.13*' -o -name 'libnccl.so.2*' \) \
           -printf '%h\n' 2>/dev/null | sort -u | paste -sd: -)
  # The bundle's own libraries first: a system OpenBLAS (or another CBLAS under its name) beside
  # CUDA's would otherwise win.
  export LD_LIBRARY_PATH="$bundle/lib${dirs:+:$dirs}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export OMP_PROC_BIND=false OMP_PLACES=threads
  cat "$bundle/BUILD_INFO" 2>/dev/null
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; lscpu | grep -E 'Model name|^CPU\(s\)|per core|per socket|^Socket|NUMA node\(s\)'
  grep -o -w -E 'avx2|fma|f16c|avx512f|avx512_bf16|avx512_fp16|amx_bf16' /proc/cpuinfo | sort -u | tr '\n' ' '; echo
  echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
  local fm="$bundle/examples/fashion_mnist" data="$bundle/data"
  save() { tar -C "$work" -czf "$out/logs.tgz" . ; }

  local phases=" ${PHASES:-example bench tests examples scaling torch loader} "
  has() { [[ $phases == *" $1 "* ]]; }

  if has example; then
  echo "## main example on Cuda"
  step 120 fashion_mnist_cuda "$fm" --device cuda --data "$data" --summary "$work/fashion_mnist_cuda.json"
  grep -E 'training step|epoch +(1|10)/' "$work/fashion_mnist_cuda.log"; tail -n 1 "$work/fashion_mnist_cuda.log"
  step 120 fashion_mnist_cuda_eager "$fm" --device cuda --eager --data "$data" --summary "$work/fashion_mnist_cuda_eager.json"
  grep -E 'training step|epoch +(1|10)/' "$work/fashion_mnist_cuda_eager.log"; tail -n 1 "$work/fashion_mnist_cuda_eager.log"
  step 120 fashion_mnist_cuda_bf16 "$fm" --device cuda --amp bf16 --data "$data" --summary "$work/fm_bf16.json"
  tail -n 2 "$work/fashion_mnist_cuda_bf16.log"
  step 120 fashion_mnist_cuda_fp16 "$fm" --device cuda --amp fp16 --data "$data" --summary "$work/fm_fp16.json"
  tail -n 2 "$work/fashion_mnist_cuda_fp16.log"
  save
  fi

  if has bench; then
  echo "## GPU benchmarks"
  step 120 bench_mixed_gemm "$bundle/bench/bench_mixed_gemm" --benchmark_filter=cuda
  sed -n '/Summary, GPU/,/Summary: 16-bit/p' "$work/bench_mixed_gemm.log"
  grep -E '^gemm/.*cuda' "$work/bench_mixed_gemm.log"
  # The fp32 step, eager and through kt::StepGraph (bench_train's file comment says how it times).
  step 240 bench_train "$bundle/bench/bench_train" --benchmark_filter='batch:(32|256|1024)/(adam/)?(graph/)?kt/' \
    --benchmark_repetitions=3
  grep -E '^\| (784|64)' "$work/bench_train.log"
  save
  fi

  local t
  if has tests; then
  echo "## Cuda test suite (in parallel on the one GPU)"
  local pids=()
  for t in "$bundle"/tests/kt_tests_*; do
    step 150 "$(basename "$t")" "$t" &
    pids+=($!)
  done
  wait "${pids[@]}"  # (a bare wait would also wait for the tee above)
  for t in "$bundle"/tests/kt_tests_*; do
    local log="$work/$(basename "$t").log"
    grep -E "^\[doctest\] (test cases|assertions)" "$log" | tr '\n' ' '
    echo " $(basename "$t")"
    grep -q -E "Status: FAILURE|terminate called|Aborted" "$log" &&
      grep -E -B4 -A6 "ERROR|FATAL|terminate called|what\(\)" "$log" | head -n 60
  done
  save
  fi

  if has examples; then
  echo "## other examples"
  for e in "$bundle"/examples/*; do
    [ "$(basename "$e")" = fashion_mnist ] || step 60 "example_$(basename "$e")" "$e"
  done
  CUDA_LAUNCH_BLOCKING=1 step 120 fashion_mnist_cuda_blocking "$fm" --device cuda --data "$data" --epochs 2 --summary none
  save
  fi

  if has scaling; then
  echo "## host thread scaling: one epoch, --workers 0, --device openmp"
  local blas
  for blas in openmp pthread; do
    for t in 1 2 4 8 16; do
      if [ $blas = pthread ]; then
        LD_LIBRARY_PATH="$bundle/lib-pthread:$LD_LIBRARY_PATH" step 60 "scale_${blas}_$t" "$fm" --device openmp \
          --threads $t --workers 0 --epochs 1 --data "$data" --summary none
      else
        step 60 "scale_${blas}_$t" "$fm" --device openmp --threads $t --workers 0 --epochs 1 --data "$data" --summary none
      fi
      echo "$blas $t threads: $(grep -h -E 'epoch +1/|training time' "$work/scale_${blas}_$t.log" | tr '\n' ' ')"
    done
  done
  # Where a slowdown at all threads comes from: OpenMP threads spinning while others work, or
  # BLAS threads on top of kt's.
  local env
  for env in OMP_WAIT_POLICY=passive OPENBLAS_NUM_THREADS=1 OMP_PROC_BIND=true; do
    t=$(nproc)
    timeout 60 env "$env" "$fm" --device openmp --threads "$t" --workers 0 --epochs 1 --data "$data" --summary none \
      >"$work/scale_env_${env%%=*}.log" 2>&1
    echo "openmp $t threads, $env: $(grep -h 'training time' "$work/scale_env_${env%%=*}.log")"
  done
  # Near all cores, two runs each (single runs there were noisy), with the machine's other
  # load and steal time around them: on 2 cores here, a core shared with another process made
  # all threads 2-3x slower than one under the default wait policy (docs/performance.md).
  echo "### other load, CPU topology and steal time (cpu line of /proc/stat: the 8th number)"
  top -bn1 | head -15 || true
  lscpu | grep -iE 'thread|core|socket|numa|model name' || true
  grep '^cpu ' /proc/stat
  local r
  for t in 12 14 15; do
    for r in 1 2; do
      timeout 60 "$fm" --device openmp --threads "$t" --workers 0 --epochs 1 --data "$data" --summary none \
        >"$work/scale_near_${t}_$r.log" 2>&1
      echo "openmp $t threads, run $r: $(grep -h 'training time' "$work/scale_near_${t}_$r.log")"
    done
  done
  grep '^cpu ' /proc/stat
  # Where the time goes at 8 and 16 threads (kt::Profiler's table).
  for t in 8 16; do
    timeout 60 "$fm" --device openmp --threads "$t" --workers 0 --epochs 1 --data "$data" --summary none \
      --profile "$work/trace_$t.json" >"$work/profile_$t.log" 2>&1
    echo "### profile, $t threads"; sed -n '/^profile of/,/^Self time/p' "$work/profile_$t.log"
  done
  rm -f "$work"/trace_*.json
  save
  fi

  if has torch; then
  echo "## PyTorch's GEMMs on the same GPU, for reference (skipped without torch)"
  step 90 torch_gemm python3 - <<'PY'
import torch, time
torch.backends.cuda.matmul.allow_tf32 = False
for n, dt in [(4096, torch.float32), (4096, torch.bfloat16), (4096, torch.float16)]:
    a = torch.rand(n, n, device="cuda", dtype=dt) * 2 - 1
    b = torch.rand(n, n, device="cuda", dtype=dt) * 2 - 1
    for _ in range(3): a @ b
    torch.cuda.synchronize(); t = time.perf_counter(); reps = 20
    for _ in range(reps): a @ b
    torch.cuda.synchronize(); s = (time.perf_counter() - t) / reps
    print(f"torch {torch.__version__} {n}^3 {dt}: {s * 1e6:.0f} us, {2 * n**3 / s / 1e12:.1f} TFLOP/s")
PY
  cat "$work/torch_gemm.log"
  # PyTorch's twin of bench_train and of the main example: eager, CUDA graph, torch.compile.
  step 300 torch_train_step python3 "$bundle/train_step_pytorch.py" --device cuda --fashion-mnist "$data" \
    --compile-budget "${TORCH_COMPILE_BUDGET:-90}" --json "$work/torch_train_step.json"
  grep -E '^\||^compile:|graph: warm-up|mean train loss|^torch|^device|^driver' "$work/torch_train_step.log"
  fi

  if has loader; then
  echo "## the loader on Cuda"
  step 120 bench_loader "$bundle/bench/bench_loader" --benchmark_filter=Cuda
  grep -E 'Cuda' "$work/bench_loader.log" | head -n 6
  save
  fi
  local failed
  failed=$(grep -c '^FAIL' "$work/steps.txt")
  echo "failed steps: $failed"
  [ "$failed" = 0 ]
}

case "$mode" in
  pack) pack ;;
  run) run "$@" ;;
  *) sed -n '2,21p' "${BASH_SOURCE[0]}"; exit 2 ;;
esac
