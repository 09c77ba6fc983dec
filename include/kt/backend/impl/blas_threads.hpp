#pragma once
// How the linked CBLAS library threads its calls, and a scope that sets its thread count.
//
// kt's host threads are Kokkos' OpenMP pool. OpenBLAS' OpenMP build threads on that same pool;
// its pthreads build (the default of many distributions and sites) and other CBLAS libraries
// have pools of their own, whose N threads would meet kt's N OpenMP threads, both spinning
// while the other works, so that more threads make the main example slower, not faster
// (docs/performance.md, "BLAS on one thread, threaded by kt"). kt therefore calls every
// library on one thread (BlasThreadScope(1)) and threads the GEMM itself
// (kt/backend/impl/gemm_blas.hpp); blas_threading() says which kind of library this process
// loaded (tests, benchmark context).

#include "kt/core/impl/internal.hpp"

#include "kt/backend/gemm_problem.hpp"

#if defined(KT_ENABLE_CBLAS)
// OpenBLAS' headers declare a global `typedef uint16_t bfloat16;`, which would make
// `bfloat16` ambiguous for anyone who writes `using kt::bfloat16;` or `using namespace kt;`.
// Give it another name while the header is read.
#define bfloat16 kt_openblas_bfloat16
#include <cblas.h>
#undef bfloat16

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace kt::impl {

/// Whose threads run a multi-threaded BLAS call.
enum class BlasThreading {
  Serial,   ///< the library never threads (OpenBLAS built without threads)
  OpenMP,   ///< the caller's OpenMP pool: Kokkos' threads (OpenBLAS' OpenMP build)
  OwnPool,  ///< a pool of its own: OpenBLAS' pthreads build, and any CBLAS kt cannot ask
};

/// Asked at run time, not configure time: the same binary may load another libopenblas.so.0
/// (LD_LIBRARY_PATH, a site's module, Debian's alternatives).
inline BlasThreading blas_threading() {
#if defined(KT_CBLAS_IS_OPENBLAS)
  switch (openblas_get_parallel()) {  // 0 serial, 1 pthreads, 2 OpenMP
    case 0: return BlasThreading::Serial;
    case 2:
#if defined(_OPENMP)
      return BlasThreading::OpenMP;
#else
      return BlasThreading::OwnPool;  // an OpenMP runtime that is not kt's
#endif
    default: return BlasThreading::OwnPool;
  }
#else
  return BlasThreading::OwnPool;
#endif
}

inline const char* to_string(BlasThreading t) {
  switch (t) {
    case BlasThreading::Serial: return "serial";
    case BlasThreading::OpenMP: return "openmp";
    case BlasThreading::OwnPool: return "own pool";
  }
  return "unknown";
}

/// True when the linked BLAS runs a GEMM of m·n·k multiply-adds on one thread whatever its
/// thread setting, so that a call needs no BlasThreadScope: OpenBLAS' interface threads a GEMM
/// only above m·n·k = 65536 · GEMM_MULTITHREAD_THRESHOLD, a build option of 4 by default
/// (interface/gemm.c). A build with a lower threshold could thread a product up to 4x smaller
/// than this assumes, on its own count: as fast or slower, never different values. Other
/// libraries are never assumed to stay on one thread.
inline bool blas_gemm_runs_single(double mnk) {
#if defined(KT_CBLAS_IS_OPENBLAS)
  return mnk <= 65536.0 * 4;
#else
  (void)mnk;
  return false;
#endif
}

/// Runs the BLAS calls of its lifetime on `threads` threads and gives the caller back both
/// OpenBLAS' thread count and its own omp_get_max_threads() afterwards. OpenBLAS' OpenMP build
/// implements openblas_set_num_threads(n) as omp_set_num_threads(n) on the calling thread,
/// re-syncs its count to omp_get_max_threads() inside each call unless that count is 1, and
/// forks with the caller's OpenMP setting. So the count is compared with the current values
/// (not a cached one, which the caller, LibTorch or OpenBLAS itself may have changed since: a
/// "1-thread" call then ran on 2 threads), and both settings are restored on the way out (a
/// count of 1 left behind would pin the application's own BLAS calls to one thread).
class BlasThreadScope {
public:
  explicit BlasThreadScope(int threads) {
#if defined(KT_CBLAS_IS_OPENBLAS)
    saved_blas_threads_ = openblas_get_num_threads();
    bool differs = saved_blas_threads_ != threads;
#if defined(_OPENMP)
    saved_omp_threads_ = omp_get_max_threads();
    differs = differs || (blas_threading() == BlasThreading::OpenMP && saved_omp_threads_ != threads);
#endif
    if (differs) {
      openblas_set_num_threads(threads);
      changed_ = true;
    }
#else
    (void)threads;
#endif
  }
  ~BlasThreadScope() {
#if defined(KT_CBLAS_IS_OPENBLAS)
    if (!changed_) return;
    if (openblas_get_num_threads() != saved_blas_threads_) openblas_set_num_threads(saved_blas_threads_);
#if defined(_OPENMP)
    if (omp_get_max_threads() != saved_omp_threads_) omp_set_num_threads(saved_omp_threads_);
#endif
#endif
  }
  BlasThreadScope(const BlasThreadScope&) = delete;
  BlasThreadScope& operator=(const BlasThreadScope&) = delete;

private:
  [[maybe_unused]] int saved_blas_threads_ = 0;
  [[maybe_unused]] int saved_omp_threads_ = 0;
  [[maybe_unused]] bool changed_ = false;
};

}  // namespace kt::impl

#endif
