#pragma once
/// \file kt/backend/impl/gemm_host_small_swapped.hpp
/// The small path's route for C = A · Bᵀ when C has few rows (the Linear forward x · Wᵀ of a
/// small batch): computed as Cᵀ = B · Aᵀ, each tile of Cᵀ turned into rows of C as it is
/// stored.
///
/// Computed directly, op(B) = Bᵀ is packed in register transposes: all of the weight, which the
/// optimizer's update has just pushed out to L2. Swapped, B is the row operand, each of its
/// elements broadcast once from where it is stored, and what is packed is Aᵀ: the m ≤ NR rows
/// of x that the previous layer has just written, one panel. Each 8 x W tile of Cᵀ then goes
/// through 8 x 8 register transposes on its way to C's rows, and through the epilogue there
/// (the bias and activation of column j of C apply to row j of Cᵀ). Each element is still
/// Σ_l A(i, l) B(j, l) over ascending l from zero, so the bits are those of the direct route
/// and of the packed kernel. A 32 x 64 x 64 product with B just evicted to L2 takes 2.2 µs
/// instead of 2.6 (docs/performance.md, "Swapped products").

#include "kt/core/impl/internal.hpp"

#include "kt/backend/gemm_problem.hpp"
#include "kt/backend/impl/gemm_kokkos_host.hpp"
#include "kt/backend/impl/gemm_layout.hpp"
#include "kt/backend/impl/gemm_micro.hpp"
#include "kt/backend/impl/gemm_micro_direct.hpp"
#include "kt/backend/impl/gemm_transpose.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>
#include <vector>

namespace kt::impl {

/// Whether gemm_host_small runs p swapped: fp32 on a build with 8 x 8 register transposes and
/// 32 vector registers (an 8 x NR tile of Cᵀ takes 16 of them: AVX-512), B transposed and A
/// not, and op(A)'s m rows no more than op(B)'s n columns (packing them costs no more than
/// packing op(B) would) and a whole panel of NR or NR / 2 in register-transposed blocks (m 16
/// or 32 with AVX-512). Rows that fill a panel partly are packed one by one, and then the
/// direct route is as fast or faster (docs/performance.md, "Swapped products").
template <class T>
bool gemm_host_small_swaps(const GemmProblem<T, T>& p) {
  if constexpr (std::is_same_v<T, float> && gemm_transposes8 && gemm_host_simd_regs >= 32) {
    constexpr int NR = GemmTiles<Kokkos::DefaultHostExecutionSpace, T>::NR;
    const bool whole_panel = (p.m == NR || p.m == NR / 2) && gemm_transposes_rows(int(p.m));
    return p.trans_a == Transpose::No && p.trans_b == Transpose::Yes && whole_panel && p.m <= p.n;
  } else {
    (void)p;
    return false;
  }
}

/// d[c * ds + r] = s[r * rs + c] for r, c < 8: gemm_transpose8 (a scalar loop where the build
/// has none; gemm_host_small_swaps is false there).
inline void gemm_turn8(const float* s, std::int64_t rs, float* d, std::int64_t ds) {
#if defined(KT_IMPL_GEMM_TRANSPOSE8)
  gemm_transpose8(s, rs, d, ds);
#else
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 8; ++c) d[c * ds + r] = s[r * rs + c];
#endif
}

/// gemm_host_small_swapped with Cᵀ's panel W = m columns wide, whole: A's rows are packed in
/// register transposes, and turned into C's rows 8 at a time.
template <int W, class T, class Epi>
void gemm_host_small_swapped_panel(const GemmProblem<T, T>& p, const Epi& epi) {
  constexpr int MR = 8;  // rows of Cᵀ per tile: the 8 x 32 tile's sums take 16 of the 32 registers
  const std::int64_t m = p.m, n = p.n, k = p.k;
  const T alpha = p.alpha, beta = p.beta;
  // The buffer: Aᵀ as one panel, MR zero-padded rows of B for the partial tile, MR epilogue
  // elements for its columns.
  thread_local std::vector<T> buffer;
  const std::size_t need = std::size_t(W * k + MR * k + MR);
  if (buffer.size() < need) buffer.resize(need);
  T* const apack = buffer.data();
  T* const bpad = apack + W * k;
  T* const epack = bpad + MR * k;
  alignas(64) T tile[MR * W];
  alignas(64) T turned[W * MR];
  for (std::int64_t bi = 0; bi < p.batch; ++bi) {
    const T* const ab = p.a + bi * p.stride_a;
    const T* const bb = p.b + bi * p.stride_b;
    T* const cb = p.c + bi * p.stride_c;
    gemm_pack_host<W>(apack, ab, p.lda, 1, int(m), 1, int(k), int(k * W));
    for (std::int64_t j0 = 0; j0 < n; j0 += MR) {  // rows j0 .. j0 + MR of Cᵀ, columns of C
      const int nv = int(n - j0 < MR ? n - j0 : MR);
      const T* rows = bb + j0 * p.ldb;
      std::int64_t rs = p.ldb;
      if (nv < MR) {
        for (int j = 0; j < MR; ++j)
          for (std::int64_t l = 0; l < k; ++l) bpad[j * k + l] = j < nv ? rows[j * p.ldb + l] : T(0);
        rows = bpad;
        rs = k;
      }
      // The epilogue in Cᵀ's layout, where row j of the tile is column j0 + j of C (one bias),
      // then alpha (plain products only: an epilogue comes with alpha 1); then the tile is
      // turned, straight into C's m = W rows when it is whole and C is not read, else through
      // `turned` (the last, partial tile of B's rows, or beta != 0).
      gemm_micro_direct<MR, W, true>(k, rows, rs, 1, apack, W, tile, W, epi.template panel<MR>(j0, nv, epack));
      if (beta == T(0) && alpha != T(1))
        for (int i = 0; i < MR * W; ++i) tile[i] = alpha * tile[i];
      if (nv == MR && beta == T(0)) {
        for (int i0 = 0; i0 < W; i0 += 8) gemm_turn8(tile + i0, W, cb + i0 * p.ldc + j0, p.ldc);
        continue;
      }
      for (int i0 = 0; i0 < W; i0 += 8) gemm_turn8(tile + i0, W, turned + i0 * MR, MR);
      for (std::int64_t i = 0; i < m; ++i) {
        T* const ci = cb + i * p.ldc + j0;
        const T* const t = turned + i * MR;
        if (beta == T(0))
          for (int j = 0; j < nv; ++j) ci[j] = t[j];
        else
          for (int j = 0; j < nv; ++j) gemm_store<true>(ci[j], t[j], alpha, beta);
      }
    }
  }
}

/// Runs p (gemm_host_small_swaps(p), k > 0) on the calling thread as Cᵀ = B · Aᵀ, each element
/// of C through `epi` (alpha 1 and beta 0 with an epilogue, as gemm_host_small). The panel of
/// Cᵀ is m wide: NR or NR / 2.
template <class T, class Epi>
void gemm_host_small_swapped(const GemmProblem<T, T>& p, const Epi& epi) {
  constexpr int NR = GemmTiles<Kokkos::DefaultHostExecutionSpace, T>::NR;
  if (p.m <= NR / 2) gemm_host_small_swapped_panel<NR / 2>(p, epi);
  else gemm_host_small_swapped_panel<NR>(p, epi);
}

}  // namespace kt::impl
