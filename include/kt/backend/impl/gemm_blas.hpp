#pragma once
// GEMM through a CBLAS library found at configure time (KT_ENABLE_CBLAS), for host memory and
// float/double. kt links OpenBLAS' OpenMP build so its threads are the same OpenMP pool as
// Kokkos' and never oversubscribe the cores; the thread count is set per call.

#include "kt/backend/gemm_problem.hpp"

#if defined(KT_ENABLE_CBLAS)
// OpenBLAS' headers declare a global `typedef uint16_t bfloat16;`, which would make
// `bfloat16` ambiguous for anyone who writes `using kt::bfloat16;` or `using namespace kt;`.
// Give it another name while the header is read.
#define bfloat16 kt_openblas_bfloat16
#include <cblas.h>
#undef bfloat16

#include <atomic>
#include <type_traits>

namespace kt::impl {

inline constexpr bool have_blas_gemm = true;

#if defined(KT_CBLAS_IS_OPENBLAS)
using blas_int = blasint;  // OpenBLAS' integer (64-bit in its ILP64 builds)
#else
using blas_int = int;
#endif

/// Sets the BLAS thread count only when it changes (the call is not free in OpenBLAS).
inline void blas_set_threads(int threads) {
#if defined(KT_CBLAS_IS_OPENBLAS)
  static std::atomic<int> current{-1};
  if (current.exchange(threads) != threads) openblas_set_num_threads(threads);
#else
  (void)threads;
#endif
}

template <class T>
void gemm_blas(const GemmProblem<T>& p, int threads) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                "kt::impl::gemm_blas: float and double only");
  blas_set_threads(threads);
  const auto ta = p.trans_a == Transpose::Yes ? CblasTrans : CblasNoTrans;
  const auto tb = p.trans_b == Transpose::Yes ? CblasTrans : CblasNoTrans;
  const auto m = static_cast<blas_int>(p.m), n = static_cast<blas_int>(p.n), k = static_cast<blas_int>(p.k);
  const auto lda = static_cast<blas_int>(p.lda), ldb = static_cast<blas_int>(p.ldb), ldc = static_cast<blas_int>(p.ldc);
  for (std::int64_t i = 0; i < p.batch; ++i) {
    const T* a = p.a + i * p.stride_a;
    const T* b = p.b + i * p.stride_b;
    T* c = p.c + i * p.stride_c;
    if constexpr (std::is_same_v<T, float>)
      cblas_sgemm(CblasRowMajor, ta, tb, m, n, k, p.alpha, a, lda, b, ldb, p.beta, c, ldc);
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
