#pragma once
// GEMM through a CBLAS library found at configure time (KT_ENABLE_CBLAS), for host memory and
// float/double. kt threads the call itself, whatever the library's own threading: it cuts the
// product into pieces (kt/backend/impl/gemm_split.hpp) and runs one single-threaded library
// call per piece on Kokkos' OpenMP threads. So a BLAS with a pool of its own (OpenBLAS'
// pthreads build, other CBLAS) never meets kt's pool (kt/backend/impl/blas_threads.hpp), and
// with OpenBLAS' OpenMP build the pieces are faster than the library's own threading at small
// and skinny shapes and about level at large ones (docs/performance.md, "kt's BLAS pieces
// against OpenBLAS' own threading").

#include "kt/core/impl/internal.hpp"

#include "kt/backend/gemm_problem.hpp"
#include "kt/backend/impl/blas_threads.hpp"
#include "kt/backend/impl/gemm_split.hpp"
#include "kt/core/impl/parallel_for.hpp"
#include "kt/core/error.hpp"

#if defined(KT_ENABLE_CBLAS)
#include <type_traits>

namespace kt::impl {

inline constexpr bool have_blas_gemm = true;

#if defined(KT_CBLAS_IS_OPENBLAS)
using blas_int = blasint;  // OpenBLAS' integer (64-bit in its ILP64 builds)
#else
using blas_int = int;
#endif

/// One CBLAS call per batch entry of p, on whatever threads the library is set to use.
template <class T>
void gemm_blas_calls(const GemmProblem<T>& p) {
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

/// p cut into `pieces` (kt/backend/impl/gemm_split.hpp), one library call per piece on kt's
/// host threads; the caller has set the library to one thread.
template <class T>
void gemm_blas_pieces(const GemmProblem<T>& p, int pieces) {
  parallel_pieces("kt::gemm::blas_pieces", pieces, [&](int i) { gemm_blas_calls(gemm_piece(p, i, pieces)); });
}

template <class T>
void gemm_blas(const GemmProblem<T>& p, int threads) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                "kt::impl::gemm_blas: float and double only");
  const BlasThreadScope one_thread(1);  // a pool of the library's own stays asleep
  const int pieces = gemm_piece_count(p, threads);
  if (pieces == 1) gemm_blas_calls(p);
  else gemm_blas_pieces(p, pieces);
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
