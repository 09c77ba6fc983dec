#pragma once
// GEMM through a CBLAS library found at configure time (KT_ENABLE_CBLAS), for host memory and
// float/double. kt threads the call itself, whatever the library's own threading: it cuts the
// product into pieces and runs one single-threaded library call per piece on Kokkos' OpenMP
// threads. So a BLAS with a pool of its own (OpenBLAS' pthreads build, other CBLAS) never meets
// kt's pool (kt/backend/impl/blas_threads.hpp), and with OpenBLAS' OpenMP build the pieces are
// faster than the library's own threading at small and skinny shapes and about level at large
// ones (docs/performance.md, "kt's BLAS pieces against OpenBLAS' own threading").
//
// The pieces write disjoint parts of C. Batch entries are split first (no operand is read
// twice). Otherwise C is cut along its larger dimension: rows (m) when m >= n, each piece then
// reading all of op(B); columns (n) otherwise, each reading all of op(A) — so the operand every
// piece re-reads and re-packs is the smaller one. Cuts fall on multiples of kGemmSplitUnit
// rows/columns, so only the last piece meets the library micro-kernel's edge case, and no piece
// is thinner than that. There is at most one piece per thread, of equal size: each library call
// packs its own operands, so C is not cut into smaller blocks shared out dynamically, as kt's own
// host kernel cuts it into work items (gemm_host_plan, kt/backend/impl/gemm_kokkos_host.hpp).

#include "kt/core/impl/internal.hpp"

#include "kt/backend/gemm_problem.hpp"
#include "kt/backend/impl/blas_threads.hpp"
#include "kt/core/impl/parallel_for.hpp"
#include "kt/core/error.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

namespace kt::impl {

/// Rows or columns per unit of a cut: a multiple of every host micro-kernel's tile height.
inline constexpr std::int64_t kGemmSplitUnit = 32;

/// How many pieces (1 ..= threads) p is cut into for `threads` threads.
template <class T>
int gemm_piece_count(const GemmProblem<T>& p, int threads) {
  if (threads <= 1 || p.empty()) return 1;
  if (p.batch >= threads) return threads;
  const std::int64_t dim = std::max(p.m, p.n);
  const std::int64_t units = (dim + kGemmSplitUnit - 1) / kGemmSplitUnit;
  return static_cast<int>(std::clamp<std::int64_t>(units, 1, threads));
}

/// Piece `i` of `pieces` (from gemm_piece_count): the same product restricted to a range of
/// batch entries, of C's rows, or of C's columns.
template <class T>
GemmProblem<T> gemm_piece(const GemmProblem<T>& p, int i, int pieces) {
  GemmProblem<T> q = p;
  if (pieces <= 1) return q;
  const auto range = [&](std::int64_t units, std::int64_t unit, std::int64_t extent) {
    const std::int64_t begin = std::min(extent, unit * (units * i / pieces));
    const std::int64_t end = std::min(extent, unit * (units * (i + 1) / pieces));
    return std::pair<std::int64_t, std::int64_t>{begin, end};
  };
  if (p.batch >= pieces) {
    const auto [b0, b1] = range(p.batch, 1, p.batch);
    q.batch = b1 - b0;
    q.a += b0 * p.stride_a;
    q.b += b0 * p.stride_b;
    q.c += b0 * p.stride_c;
    return q;
  }
  const bool rows = p.m >= p.n;
  const std::int64_t extent = rows ? p.m : p.n;
  const auto [begin, end] = range((extent + kGemmSplitUnit - 1) / kGemmSplitUnit, kGemmSplitUnit, extent);
  if (rows) {  // op(A) rows begin..end: A's rows, or A's columns when A is used transposed
    q.m = end - begin;
    q.a += p.trans_a == Transpose::Yes ? begin : begin * p.lda;
    q.c += begin * p.ldc;
  } else {  // op(B) columns begin..end: B's columns, or B's rows when B is used transposed
    q.n = end - begin;
    q.b += p.trans_b == Transpose::Yes ? begin * p.ldb : begin;
    q.c += begin;
  }
  return q;
}

}  // namespace kt::impl

#if defined(KT_ENABLE_CBLAS)

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

/// p cut into `pieces` (gemm_piece), one library call per piece on kt's host threads; the
/// caller has set the library to one thread.
template <class T>
void gemm_blas_pieces(const GemmProblem<T>& p, int pieces) {
  static const std::string label = "kt::gemm::blas_pieces";  // made once: a replayed step allocates nothing
  parallel_pieces(label, pieces, [&](int i) { gemm_blas_calls(gemm_piece(p, i, pieces)); });
}

/// Two independent products at once: p cut into p_pieces and q into q_pieces, one library call
/// per piece, all in one fork-join on kt's host threads (kt/backend/impl/gemm_pair.hpp).
template <class T>
void gemm_blas_pair(const GemmProblem<T>& p, int p_pieces, const GemmProblem<T>& q, int q_pieces) {
  static const std::string label = "kt::gemm::blas_pair";
  const BlasThreadScope one_thread(1);
  parallel_pieces(label, p_pieces + q_pieces, [&](int i) {
    if (i < p_pieces) gemm_blas_calls(gemm_piece(p, i, p_pieces));
    else gemm_blas_calls(gemm_piece(q, i - p_pieces, q_pieces));
  });
}

template <class T>
void gemm_blas(const GemmProblem<T>& p, int threads) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                "kt::impl::gemm_blas: float and double only");
  const int pieces = gemm_piece_count(p, threads);
  // A product the library keeps on one thread anyway skips the scope: with OpenBLAS' OpenMP
  // build, setting one thread and restoring the caller's count frees and reallocates the
  // buffers of the threads it drops, ~0.15 µs a call, 5% of a small MLP's training step.
  if (pieces == 1 && blas_gemm_runs_single(double(p.m) * double(p.n) * double(p.k))) return gemm_blas_calls(p);
  const BlasThreadScope one_thread(1);  // a pool of the library's own stays asleep
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
template <class T>
void gemm_blas_pair(const GemmProblem<T>&, int, const GemmProblem<T>&, int) {
  KT_THROW("kt::gemm: the blas back-end is not available (no CBLAS library was found at configure time)");
}
}  // namespace kt::impl

#endif
