#pragma once
/// \file kt/backend/impl/gemm_host_small.hpp
/// kt's host GEMM for small fp32/fp64 products on one thread: the calling thread runs it
/// directly, without a Kokkos launch and without packing op(A).
///
/// Packing pays for itself when a packed panel is reused many times from cache; in the products
/// of a small MLP step (32 x 64 x 64 and smaller) each panel is used 3-4 times and the copies
/// cost as much as the arithmetic they feed. Here the micro-kernel broadcasts op(A)'s elements
/// from A as stored (any strides: a broadcast costs one load either way) and reads op(B)'s rows
/// in place when they are contiguous (B not transposed, every full NR-wide panel). Only what
/// cannot be read in place is copied, zero-padded, into a thread-local buffer: op(B) when B is
/// transposed (the Linear forward's weight), the last partial panel of op(B), and the last
/// partial row tile of op(A). Each MR x NR tile accumulates over all of k in registers and is
/// written once as alpha * acc + beta * C (beta == 0 never reads C). A · Bᵀ with few rows runs
/// swapped instead, as Cᵀ = B · Aᵀ, packing A rather than B
/// (kt/backend/impl/gemm_host_small_swapped.hpp).
///
/// The sums are those of the packed kernels (k ascending, one multiply-add at a time from
/// zero), so a product gives the same bits on this path, on the packed host kernel at any
/// thread count, and on Serial or OpenMP.
///
/// A caller may pass an epilogue that each element goes through as its tile is stored (the
/// Linear forward's act(acc + bias[j]): kt/tensor/impl/linear_tile_epilogue.hpp): the tile is
/// still in registers, so the element pass a separate epilogue makes over C is saved.

#include "kt/core/impl/internal.hpp"

#include "kt/backend/gemm_problem.hpp"
#include "kt/backend/impl/gemm_host_small_swapped.hpp"
#include "kt/backend/impl/gemm_kokkos_host.hpp"
#include "kt/backend/impl/gemm_layout.hpp"
#include "kt/backend/impl/gemm_micro.hpp"
#include "kt/backend/impl/gemm_micro_direct.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>
#include <vector>

namespace kt::impl {

/// True when p runs on this path: T is its own accumulation type (float, double), C is T,
/// op(B) (k x n) holds at most 16 Ki elements, so it stays in L1/L2 while every row tile of
/// op(A) passes over it, and op(A) (m x k) at most 64 Ki, so its rows, read once per panel of
/// op(B), come from L2. The calling thread must be the only one asked to run it.
template <class T, class C>
bool gemm_host_small_fits(const GemmProblem<T, C>& p) {
  if constexpr (std::is_same_v<T, C> && std::is_same_v<T, gemm_acc_t<T>> && std::is_floating_point_v<T>)
    return p.k * p.n <= 16384 && p.m * p.k <= 65536;
  else
    return false;
}

/// The row tiles of one panel of op(B), W columns wide (nv of them valid) and `ldb` apart in
/// `bp`, into C's columns j0 .. j0 + nv: full tiles straight into C where they can, the rest
/// through a tile buffer and the packed kernels' epilogue (gemm_store). The partial row tile
/// reads op(A) from `apack` (MR rows of k, zero-padded). `epi` is the panel's epilogue.
template <int MR, int W, class T, class Epi>
void gemm_host_small_panel(const GemmProblem<T, T>& p, const T* ab, std::int64_t ars, std::int64_t acs,
                           const T* apack, const T* bp, std::int64_t ldb, T* cb, std::int64_t j0, int nv,
                           const Epi& epi) {
  alignas(64) T tile[MR * W];
  const T alpha = p.alpha, beta = p.beta;
  const bool direct = alpha == T(1) && beta == T(0);
  for (std::int64_t i0 = 0; i0 < p.m; i0 += MR) {
    const int mv = int(p.m - i0 < MR ? p.m - i0 : MR);
    T* const ct = cb + i0 * p.ldc + j0;
    const bool to_c = direct && mv == MR && nv == W;
    T* const out = to_c ? ct : tile;
    const std::int64_t ldo = to_c ? p.ldc : W;
    if (mv == MR) gemm_micro_direct<MR, W>(p.k, ab + i0 * ars, ars, acs, bp, ldb, out, ldo, epi);
    else gemm_micro_direct<MR, W>(p.k, apack, p.k, 1, bp, ldb, out, ldo, epi);
    if (to_c) continue;
    for (int i = 0; i < mv; ++i) {
      T* const ci = ct + i * p.ldc;
      if (beta == T(0))
        for (int j = 0; j < nv; ++j) gemm_store<false>(ci[j], tile[i * W + j], alpha, beta);
      else
        for (int j = 0; j < nv; ++j) gemm_store<true>(ci[j], tile[i * W + j], alpha, beta);
    }
  }
}

/// gemm_host_small with row tiles of MR. Panels of op(B) are NR columns wide, but a last
/// partial panel of at most NR / 2 columns is NR / 2 wide: with AVX-512's NR = 32, a 10-class
/// output layer's products then compute 6 padding columns instead of 22 (docs/performance.md,
/// "Narrow last panels").
template <int MR, class T, class Epi>
void gemm_host_small_tiles(const GemmProblem<T, T>& p, const Epi& epi) {
  constexpr int NR = GemmTiles<Kokkos::DefaultHostExecutionSpace, T>::NR, NH = NR / 2;
  const std::int64_t m = p.m, n = p.n, k = p.k, full = n / NR, tail = n - full * NR;
  const int tail_width = tail > NH ? NR : NH;
  // op(A)(i, l) = a[i*ars + l*acs]; op(B)(l, j) = b[j*brs + l*bcs].
  const bool ta = p.trans_a == Transpose::Yes, tb = p.trans_b == Transpose::Yes;
  const std::int64_t ars = ta ? 1 : p.lda, acs = ta ? p.lda : 1, brs = tb ? p.ldb : 1, bcs = tb ? 1 : p.ldb;
  // The buffer: op(B)'s full panels when B is transposed (read in place otherwise), its
  // partial panel, one zero-padded MR x k tile of op(A) for its partial row tile, and NR
  // elements for the epilogue of the partial panel.
  const std::int64_t copied_full = tb ? full : 0, tail_size = tail > 0 ? tail_width * k : 0;
  thread_local std::vector<T> buffer;
  const std::size_t need = std::size_t(copied_full * NR * k + tail_size + MR * k + NR);
  if (buffer.size() < need) buffer.resize(need);
  T* const bpack = buffer.data();
  T* const tpack = bpack + copied_full * NR * k;
  T* const apack = tpack + tail_size;
  T* const epack = apack + MR * k;
  const std::int64_t partial_row = m / MR * MR;
  for (std::int64_t bi = 0; bi < p.batch; ++bi) {
    const T* const ab = p.a + bi * p.stride_a;
    const T* const bb = p.b + bi * p.stride_b;
    T* const cb = p.c + bi * p.stride_c;
    if (partial_row < m)
      for (int i = 0; i < MR; ++i)
        for (std::int64_t l = 0; l < k; ++l)
          apack[i * k + l] = partial_row + i < m ? ab[(partial_row + i) * ars + l * acs] : T(0);
    if (tb) gemm_pack_host<NR>(bpack, bb, brs, bcs, int(full * NR), int(full), int(k), int(k * NR));
    for (std::int64_t jr = 0; jr < full; ++jr) {
      const T* const bp = tb ? bpack + jr * k * NR : bb + jr * NR;
      gemm_host_small_panel<MR, NR>(p, ab, ars, acs, apack, bp, tb ? NR : bcs, cb, jr * NR, NR,
                                    epi.template panel<NR>(jr * NR, NR, epack));
    }
    if (tail == 0) continue;
    const auto tail_panel = [&](auto width) {  // packed, zero-padded, W = NH or NR wide
      constexpr int W = decltype(width)::value;
      gemm_pack_host<W>(tpack, bb + full * NR * brs, brs, bcs, int(tail), 1, int(k), int(k * W));
      gemm_host_small_panel<MR, W>(p, ab, ars, acs, apack, tpack, W, cb, full * NR, int(tail),
                                   epi.template panel<W>(full * NR, int(tail), epack));
    };
    if (tail_width == NH) tail_panel(std::integral_constant<int, NH>{});
    else tail_panel(std::integral_constant<int, NR>{});
  }
}

/// Runs p (gemm_host_small_fits(p), k > 0) on the calling thread, each element of C through
/// `epi` as it is stored; an epilogue other than GemmNoEpilogue needs alpha 1 and beta 0. Row
/// tiles are the host kernel's MR rows, or two thirds of that where it pads op(A) with fewer
/// zero rows (MR 12 or 8 with AVX-512: 32 rows are 4 x 8 instead of 3 x 12, one of them a
/// third empty); both keep at least the 8 independent accumulators two FMA pipes of latency 4
/// need. Products that gemm_host_small_swaps runs swapped.
template <class T, class Epi = GemmNoEpilogue>
void gemm_host_small(const GemmProblem<T, T>& p, const Epi& epi = {}) {
  constexpr int MR = GemmTiles<Kokkos::DefaultHostExecutionSpace, T>::MR, MR2 = MR * 2 / 3;
  constexpr bool plain = std::is_same_v<Epi, GemmNoEpilogue>;
  KT_REQUIRE(plain || (p.alpha == 1 && p.beta == 0),
             "kt::impl::gemm_host_small: an epilogue needs alpha 1 and beta 0");
  if constexpr (std::is_same_v<T, float>)
    if (gemm_host_small_swaps(p)) return gemm_host_small_swapped(p, epi);
  const auto padded = [&](std::int64_t r) { return (p.m + r - 1) / r * r; };
  if (padded(MR2) < padded(MR)) gemm_host_small_tiles<MR2>(p, epi);
  else gemm_host_small_tiles<MR>(p, epi);
}

}  // namespace kt::impl
