#pragma once
/// \file kt/backend/impl/gemm_micro_direct.hpp
/// The micro-kernel of kt's small-product path (kt/backend/impl/gemm_host_small.hpp): one
/// MR x NR tile of C over all of k in registers, op(A) broadcast from where it is stored (any
/// strides) and op(B)'s rows read in place, each element stored once through an epilogue.

#include "kt/core/impl/internal.hpp"

#include "kt/backend/impl/gemm_micro.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kt::impl {

/// The small path's tile store without an epilogue (the product's alpha and beta apply).
struct GemmNoEpilogue {
  /// The epilogue of the W-wide panel of C's columns j0 .. j0 + nv (see LinearTileEpilogue).
  template <int W, class T>
  GemmNoEpilogue panel(std::int64_t, int, T*) const { return {}; }
  /// Element (i, j) of a panel's tile, j counted from the panel's first column.
  template <class T>
  KOKKOS_FORCEINLINE_FUNCTION T operator()(T acc, int) const { return acc; }
};

/// out[i*ldo + j] = epi(sum over l < k of A(i, l) * B(l, j), j) for i < MR, j < NR, with
/// A(i, l) = a[i*ars + l*acs] and B(l, j) = b[l*ldb + j]: gemm_micro's loop nest, with its
/// loop hints and its reason to be a function of its own, on operands as stored. ByRow passes
/// epi the row i instead (a tile of Cᵀ, whose rows are C's columns).
template <int MR, int NR, bool ByRow = false, class Acc, class Epi>
KT_IMPL_GEMM_MICRO_INLINE void gemm_micro_direct(std::int64_t k, const Acc* KOKKOS_RESTRICT a, std::int64_t ars,
                                                  std::int64_t acs, const Acc* KOKKOS_RESTRICT b, std::int64_t ldb,
                                                  Acc* KOKKOS_RESTRICT out, std::int64_t ldo, Epi epi) {
  // The k loop is a do-while (the caller has k > 0) and the zero fill unrolled like it: as a
  // loop that might not run, GCC 12 kept a k of 0's accumulators in memory and zero-filled
  // them there on every call (a 1 KiB memset per 8 x 32 tile).
  Acc acc[MR][NR];
  KT_IMPL_UNROLL_ROWS
  for (int i = 0; i < MR; ++i) {
    KT_IMPL_UNROLL_COLS
    for (int j = 0; j < NR; ++j) acc[i][j] = Acc(0);
  }
  std::int64_t l = 0;
  do {
    KT_IMPL_UNROLL_ROWS
    for (int i = 0; i < MR; ++i) {
      const Acc ai = a[i * ars + l * acs];
      KT_IMPL_UNROLL_COLS
      for (int j = 0; j < NR; ++j) acc[i][j] += ai * b[l * ldb + j];
    }
  } while (++l < k);
  KT_IMPL_UNROLL_ROWS
  for (int i = 0; i < MR; ++i) {
    KT_IMPL_UNROLL_COLS
    for (int j = 0; j < NR; ++j) out[i * ldo + j] = epi(acc[i][j], ByRow ? i : j);
  }
}

}  // namespace kt::impl
