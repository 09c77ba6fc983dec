#pragma once
// What kt's two GEMM kernels (the host kernel, kt/backend/impl/gemm_kokkos_host.hpp, and the
// team kernel, gemm_kokkos.hpp) share: where op(A), op(B) and C are for a tile of the grid
// each launches one work item per, how a work item carves its scratch, and the epilogue that
// writes an accumulator to C. The kernels differ in how they choose the tiles and in who
// computes them (one thread, or a team); the addressing and the rounding are written here once.

#include "kt/core/impl/internal.hpp"

#include "kt/backend/gemm_problem.hpp"
#include "kt/backend/impl/gemm_micro.hpp"
#include "kt/core/error.hpp"

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>

namespace kt::impl {

/// One tile of C's grid: batch entry, first row and column, and its extent (the last tiles of
/// a row or column of the grid are smaller).
struct GemmTile {
  std::int64_t batch, row, col;
  int rows, cols;
};

/// A GEMM problem cut into tiles of at most mi x ni elements of C: op(A)(i, l) =
/// a[i*ars + l*acs], op(B)(l, j) = b[j*brs + l*bcs] (B is packed as op(B)^T), one work item per
/// tile, batch-major then row-major over the mt x nt grid.
template <class T, class C>
struct GemmLayout {
  const T* a;
  const T* b;
  C* c;
  std::int64_t ars, acs, brs, bcs, ldc, stride_a, stride_b, stride_c;
  std::int64_t m, n, k, mi, ni, mt, nt, batch;

  GemmLayout(const GemmProblem<T, C>& p, std::int64_t tile_rows, std::int64_t tile_cols)
      : a(p.a), b(p.b), c(p.c), ars(p.trans_a == Transpose::Yes ? 1 : p.lda),
        acs(p.trans_a == Transpose::Yes ? p.lda : 1), brs(p.trans_b == Transpose::Yes ? p.ldb : 1),
        bcs(p.trans_b == Transpose::Yes ? 1 : p.ldb), ldc(p.ldc), stride_a(p.stride_a), stride_b(p.stride_b),
        stride_c(p.stride_c), m(p.m), n(p.n), k(p.k), mi(tile_rows), ni(tile_cols), mt((p.m + mi - 1) / mi),
        nt((p.n + ni - 1) / ni), batch(p.batch) {
    KT_REQUIRE(mt * nt * batch <= std::int64_t(INT32_MAX), "kt::gemm_kokkos: too many tiles: ", mt, " x ", nt,
               " x ", batch);
  }

  /// Work items: one per tile.
  int items() const { return int(mt * nt * batch); }

  KOKKOS_INLINE_FUNCTION GemmTile tile(std::int64_t item) const {
    const std::int64_t row = item / nt % mt * mi, col = item % nt * ni;
    return {item / (mt * nt), row, col, int(m - row < mi ? m - row : mi), int(n - col < ni ? n - col : ni)};
  }
  /// op(A)'s rows of the tile, from column 0.
  KOKKOS_INLINE_FUNCTION const T* a_of(const GemmTile& t) const { return a + t.batch * stride_a + t.row * ars; }
  /// op(B)'s columns of the tile, from row 0.
  KOKKOS_INLINE_FUNCTION const T* b_of(const GemmTile& t) const { return b + t.batch * stride_b + t.col * brs; }
  /// The tile's first element of C.
  KOKKOS_INLINE_FUNCTION C* c_of(const GemmTile& t) const { return c + t.batch * stride_c + t.row * ldc + t.col; }
};

/// The packed operands and accumulators of one work item in its scratch.
template <class Acc>
struct GemmBuffers {
  Acc* a;    // packed op(A): a_len elements, panels a_stride apart
  Acc* b;    // packed op(B): b_len elements, panels b_stride apart
  Acc* acc;  // accumulators: acc_len elements, null when acc_len is 0 (accumulating in C)
};

/// A work item's scratch: packed micro-panels of MR rows of op(A) and NR columns of op(B)
/// (KC x MR and KC x NR, `pad` elements apart), and acc_len accumulators; each block 64-byte
/// aligned.
template <class Acc>
struct GemmScratch {
  int a_stride, b_stride;
  std::size_t a_len, b_len, acc_len;

  template <class Tiles>
  static GemmScratch of(std::int64_t a_panels, std::int64_t b_panels, std::size_t acc_len) {
    const int a_stride = Tiles::KC * Tiles::MR + Tiles::pad, b_stride = Tiles::KC * Tiles::NR + Tiles::pad;
    return {a_stride, b_stride, std::size_t(a_panels) * a_stride, std::size_t(b_panels) * b_stride, acc_len};
  }
  /// Bytes to request per team (+64 to align each block).
  std::size_t bytes() const { return (a_len + b_len + acc_len) * sizeof(Acc) + 3 * 64; }

  template <class ScratchSpace>
  KOKKOS_INLINE_FUNCTION GemmBuffers<Acc> carve(const ScratchSpace& scratch) const {
    Acc* const as = static_cast<Acc*>(scratch.get_shmem_aligned(a_len * sizeof(Acc), 64));
    Acc* const bs = static_cast<Acc*>(scratch.get_shmem_aligned(b_len * sizeof(Acc), 64));
    Acc* const cs = acc_len ? static_cast<Acc*>(scratch.get_shmem_aligned(acc_len * sizeof(Acc), 64)) : nullptr;
    return {as, bs, cs};
  }
};

/// The epilogue of one element, the same in both kernels: c = alpha * acc + beta * c in the
/// accumulation type, rounded to C once; with ReadsC false (beta == 0) C is never read, so
/// NaN or garbage there does not leak into the result.
template <bool ReadsC, class C, class Acc>
KOKKOS_FORCEINLINE_FUNCTION void gemm_store(C& c, Acc acc, Acc alpha, Acc beta) {
  if constexpr (ReadsC) c = static_cast<C>(alpha * acc + beta * gemm_load<Acc>(c));
  else c = static_cast<C>(alpha * acc);
}

}  // namespace kt::impl
