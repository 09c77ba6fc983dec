#pragma once
// Cutting one GEMM problem into independent pieces that write disjoint parts of C, for
// threading a library call from kt's own thread pool (kt/backend/impl/gemm_blas.hpp).
//
// Batch entries are split first (no operand is read twice). Otherwise C is cut along its
// larger dimension: rows (m) when m >= n, each piece then reading all of op(B); columns (n)
// otherwise, each reading all of op(A) — so the operand every piece re-reads and re-packs is
// the smaller one. Cuts fall on multiples of kGemmSplitUnit rows/columns, so only the last
// piece meets the library micro-kernel's edge case, and no piece is thinner than that.

#include "kt/core/impl/internal.hpp"

#include "kt/backend/gemm_problem.hpp"

#include <algorithm>
#include <cstdint>
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
