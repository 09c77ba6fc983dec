#pragma once
// GEMM through a CBLAS library found at configure time (KT_ENABLE_CBLAS), for host memory and
// float/double. kt links OpenBLAS' OpenMP build so its threads are the same OpenMP pool as
// Kokkos' and never oversubscribe the cores; the thread count is set per call, and the
// caller's OpenBLAS and OpenMP thread counts restored after it.

#include "kt/backend/gemm_problem.hpp"
#include "kt/core/error.hpp"

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

#include <type_traits>

namespace kt::impl {

inline constexpr bool have_blas_gemm = true;

#if defined(KT_CBLAS_IS_OPENBLAS)
using blas_int = blasint;  // OpenBLAS' integer (64-bit in its ILP64 builds)
#else
using blas_int = int;
#endif

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
    const bool omp_build = openblas_get_parallel() == 2;  // 0 serial, 1 pthreads, 2 OpenMP
    differs = differs || (omp_build && saved_omp_threads_ != threads);
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

template <class T>
void gemm_blas(const GemmProblem<T>& p, int threads) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                "kt::impl::gemm_blas: float and double only");
  const BlasThreadScope thread_scope(threads);
  const auto ta = p.trans_a == Transpose::Yes ? CblasTrans : CblasNoTrans;
  const auto tb = p.trans_b == Transpose::Yes ? CblasTrans : CblasNoTrans;
  const auto m = static_cast<blas_int>(p.m), n = static_cast<blas_int>(p.n), k = static_cast<blas_int>(p.k);
  const auto lda = static_cast<blas_int>(p.lda), ldb = static_cast<blas_int>(p.ldb), ldc = static_cast<blas_int>(p.ldc);
  for (std::int64_t i = 0; i < p.batch; ++i) {
    const T* a = p.a + i * p.stride_a;
    const T* b = p.b + i * p.stride_b;
    T* c = p.c + i * p.stride_c;
    if constexpr (std::is_same_v<T, float>)
      cblas_sgemm(CblasRowMajor, ta, tb, m, n, k, float(p.alpha), a, lda, b, ldb, float(p.beta), c, ldc);
    else
      cblas_dgemm(CblasRowMajor, ta, tb, m, n, k, p.alpha, a, lda, b, ldb, p.beta, c, ldc);
  }
}

}  // namespace kt::impl

#else

namespace kt::impl {
inline constexpr bool have_blas_gemm = false;
template <class T>
void gemm_blas(const GemmProblem<T>&, int) {
  KT_THROW("kt::gemm: the blas back-end is not available (no CBLAS library was found at configure time)");
}
}  // namespace kt::impl

#endif
