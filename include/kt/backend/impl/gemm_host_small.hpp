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
/// written once as alpha * acc + beta * C (beta == 0 never reads C).
///
/// The sums are those of the packed kernels (k ascending, one multiply-add at a time from
/// zero), so a product gives the same bits on this path, on the packed host kernel at any
/// thread count, and on Serial or OpenMP.

#include "kt/core/impl/internal.hpp"

#include "kt/backend/gemm_problem.hpp"
#include "kt/backend/impl/gemm_kokkos_host.hpp"
#include "kt/backend/impl/gemm_micro.hpp"

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

/// out[i*ldo + j] = sum over l < k of A(i, l) * B(l, j) for i < MR, j < NR, with A(i, l) =
/// a[i*ars + l*acs] and B(l, j) = b[l*ldb + j]: gemm_micro's loop nest, with its loop hints
/// and its reason to be a function of its own, on operands as stored.
template <int MR, int NR, class Acc>
KT_IMPL_GEMM_MICRO_INLINE void gemm_micro_direct(std::int64_t k, const Acc* KOKKOS_RESTRICT a, std::int64_t ars,
                                                  std::int64_t acs, const Acc* KOKKOS_RESTRICT b, std::int64_t ldb,
                                                  Acc* KOKKOS_RESTRICT out, std::int64_t ldo) {
  Acc acc[MR][NR];
  for (int i = 0; i < MR; ++i)
    for (int j = 0; j < NR; ++j) acc[i][j] = Acc(0);
  for (std::int64_t l = 0; l < k; ++l) {
    KT_IMPL_UNROLL_ROWS
    for (int i = 0; i < MR; ++i) {
      const Acc ai = a[i * ars + l * acs];
      KT_IMPL_UNROLL_COLS
      for (int j = 0; j < NR; ++j) acc[i][j] += ai * b[l * ldb + j];
    }
  }
  for (int i = 0; i < MR; ++i)
    for (int j = 0; j < NR; ++j) out[i * ldo + j] = acc[i][j];
}

/// gemm_host_small with row tiles of MR.
template <int MR, class T>
void gemm_host_small_tiles(const GemmProblem<T, T>& p) {
  constexpr int NR = GemmTiles<Kokkos::DefaultHostExecutionSpace, T>::NR;
  const std::int64_t m = p.m, n = p.n, k = p.k, panels = (n + NR - 1) / NR;
  // op(A)(i, l) = a[i*ars + l*acs]; op(B)(l, j) = b[j*brs + l*bcs].
  const bool ta = p.trans_a == Transpose::Yes, tb = p.trans_b == Transpose::Yes;
  const std::int64_t ars = ta ? 1 : p.lda, acs = ta ? p.lda : 1, brs = tb ? p.ldb : 1, bcs = tb ? 1 : p.ldb;
  // The buffer: op(B)'s copied panels (all when B is transposed, else the partial one), then
  // one zero-padded MR x k tile of op(A) for its partial row tile.
  const std::int64_t copied = tb ? panels : (n % NR != 0), first_copied = panels - copied;
  thread_local std::vector<T> buffer;
  const std::size_t need = std::size_t((copied * NR + MR) * k);
  if (buffer.size() < need) buffer.resize(need);
  T* const bpack = buffer.data();
  T* const apack = bpack + copied * k * NR;
  alignas(64) T tile[MR * NR];
  const T alpha = p.alpha, beta = p.beta;
  const bool direct = alpha == T(1) && beta == T(0);  // full tiles go straight into C
  for (std::int64_t bi = 0; bi < p.batch; ++bi) {
    const T* const ab = p.a + bi * p.stride_a;
    const T* const bb = p.b + bi * p.stride_b;
    T* const cb = p.c + bi * p.stride_c;
    gemm_pack_host<NR>(bpack, bb + first_copied * NR * brs, brs, bcs, int(n - first_copied * NR), int(copied), int(k),
                       int(k * NR));
    for (std::int64_t jr = 0; jr < panels; ++jr) {
      const int nv = int(n - jr * NR < NR ? n - jr * NR : NR);
      const bool in_place = jr < first_copied;
      const T* const bp = in_place ? bb + jr * NR : bpack + (jr - first_copied) * k * NR;
      const std::int64_t ldb = in_place ? bcs : NR;
      for (std::int64_t i0 = 0; i0 < m; i0 += MR) {
        const int mv = int(m - i0 < MR ? m - i0 : MR);
        T* const ct = cb + i0 * p.ldc + jr * NR;
        const bool to_c = direct && mv == MR && nv == NR;
        T* const out = to_c ? ct : tile;
        const std::int64_t ldo = to_c ? p.ldc : NR;
        if (mv == MR) {
          gemm_micro_direct<MR, NR>(k, ab + i0 * ars, ars, acs, bp, ldb, out, ldo);
        } else {  // the partial row tile, copied once per batch item as MR rows of k, zero-padded
          if (jr == 0)
            for (int i = 0; i < MR; ++i)
              for (std::int64_t l = 0; l < k; ++l) apack[i * k + l] = i < mv ? ab[(i0 + i) * ars + l * acs] : T(0);
          gemm_micro_direct<MR, NR>(k, apack, k, 1, bp, ldb, out, ldo);
        }
        if (to_c) continue;
        for (int i = 0; i < mv; ++i) {  // as the packed kernels' epilogue: alpha * acc (+ beta * C)
          T* const ci = ct + i * p.ldc;
          if (beta == T(0))
            for (int j = 0; j < nv; ++j) ci[j] = alpha * tile[i * NR + j];
          else
            for (int j = 0; j < nv; ++j) ci[j] = alpha * tile[i * NR + j] + beta * ci[j];
        }
      }
    }
  }
}

/// Runs p (gemm_host_small_fits(p), k > 0) on the calling thread. Row tiles are the host
/// kernel's MR rows, or two thirds of that where it pads op(A) with fewer zero rows (MR 12 or
/// 8 with AVX-512: 32 rows are 4 x 8 instead of 3 x 12, one of them a third empty); both keep
/// at least the 8 independent accumulators two FMA pipes of latency 4 need.
template <class T>
void gemm_host_small(const GemmProblem<T, T>& p) {
  constexpr int MR = GemmTiles<Kokkos::DefaultHostExecutionSpace, T>::MR, MR2 = MR * 2 / 3;
  const auto padded = [&](std::int64_t r) { return (p.m + r - 1) / r * r; };
  if (padded(MR2) < padded(MR)) gemm_host_small_tiles<MR2>(p);
  else gemm_host_small_tiles<MR>(p);
}

}  // namespace kt::impl
