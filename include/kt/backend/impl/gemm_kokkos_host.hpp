#pragma once
/// \file kt/backend/impl/gemm_kokkos_host.hpp
/// kt's GEMM kernel on host execution spaces (Serial, OpenMP), for every dtype, C and beta.
/// GPUs use the team kernel of kt/backend/impl/gemm_kokkos.hpp, whose accumulators live in a
/// scratch C tile per team and whose operands are packed per tile; on one CPU thread that
/// re-packed op(B) m / MC times and crowded L2 with the tile. This kernel uses GotoBLAS' loop
/// order instead, sharing each packed block of op(B) among all the rows of a work item, and
/// accumulates in C itself where it can: that brings it level with OpenBLAS on the host, where
/// the team kernel fell well behind (docs/performance.md, "kt's own host kernel against
/// OpenBLAS").

#include "kt/core/impl/internal.hpp"

#include "kt/backend/gemm_problem.hpp"
#include "kt/backend/impl/gemm_layout.hpp"
#include "kt/backend/impl/gemm_micro.hpp"
#include "kt/backend/impl/gemm_transpose.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace kt::impl {

/// Packs rows [0, panels*R) x columns [0, kc) of X(r, c) = src[r*rs + c*cs] as micro-panels on
/// one host thread: dst[(r / R) * panel_stride + c * R + r % R], zero for r >= rows. The source
/// is read along its contiguous direction, several lines in flight (walking down a column
/// reads one cache line per 4 KiB page, which no prefetcher follows; docs/performance.md,
/// "kt's own host kernel against OpenBLAS"):
///  - rs == 1 (X's columns contiguous): X column by column, one R-wide vector per panel;
///  - otherwise (rows contiguous, cs == 1): fp32 in register transposes (16 x 16 with AVX-512,
///    8 x 8 with AVX: kt/backend/impl/gemm_transpose.hpp), the rest R rows at a time, so R
///    streams run side by side, loaded in groups of at most 16 (a 32-wide AVX-512 panel
///    loaded at once spills: its 16-bit sources packed 2.5x slower per element than a 16-wide
///    panel).
template <int R, class Acc, class T>
void gemm_pack_host(Acc* KOKKOS_RESTRICT dst, const T* KOKKOS_RESTRICT src, std::int64_t rs, std::int64_t cs,
                    int rows, int panels, int kc, int panel_stride) {
  const int full = rows / R;  // panels without an edge
  if (rs == 1) {
    for (int c = 0; c < kc; ++c) {
      const T* const s = src + c * cs;
      for (int q = 0; q < full; ++q)
        for (int i = 0; i < R; ++i) dst[std::int64_t(q) * panel_stride + c * R + i] = gemm_load<Acc>(s[q * R + i]);
    }
  } else {
    for (int q = 0; q < full; ++q) {
      Acc* const d = dst + std::int64_t(q) * panel_stride;
      const T* const s = src + std::int64_t(q) * R * rs;
      constexpr int G = R < 16 ? R : 16;
      static_assert(R % G == 0, "panel widths above 16 are multiples of 16");
      int c0 = 0;  // columns packed in register transposes, where there are some
      if constexpr (std::is_same_v<T, float> && std::is_same_v<Acc, float> && gemm_transposes_rows(R))
        if (cs == 1) c0 = gemm_pack_transposed<R>(d, s, rs, kc);
      for (int c = c0; c < kc; ++c)
        for (int g = 0; g < R; g += G) {
          Acc v[G];  // all G loads before the stores: dst and src may alias as far as GCC knows
          for (int i = 0; i < G; ++i) v[i] = gemm_load<Acc>(s[(g + i) * rs + c * cs]);
          for (int i = 0; i < G; ++i) d[c * R + g + i] = v[i];
        }
    }
  }
  // The edge panel: zeroed, then its rows copied, also along the source's contiguous
  // direction. Zeroing and copying element by element across a strided source, the edge of a
  // 10-row operand 64 deep (the 10-class output layer's weight) took as long as its product.
  for (int q = full; q < panels; ++q) {
    const int valid = rows - q * R;
    Acc* const d = dst + std::int64_t(q) * panel_stride;
    const T* const s = src + std::int64_t(q) * R * rs;
    for (int e = 0; e < kc * R; ++e) d[e] = Acc(0);
    if (rs == 1) {
      for (int c = 0; c < kc; ++c)
        for (int i = 0; i < valid; ++i) d[c * R + i] = gemm_load<Acc>(s[i + c * cs]);
    } else {
      for (int i = 0; i < valid; ++i)
        for (int c = 0; c < kc; ++c) d[c * R + i] = gemm_load<Acc>(s[i * rs + c * cs]);
    }
  }
}

/// The tile sizes of the host kernel's work items (blocks of C: mi rows x ni columns), a pure
/// function of the problem's extents, the thread count and whether the accumulators live in
/// C. One thread takes whole rows and up to 2048 columns: every operand is packed once (op(B)'s
/// block is then KC x 2048, 3 MiB in L3), which beats items of 512 columns. For more threads, C
/// is cut into columns of NC (op(B)'s block stays in L2), which beats rows of 2048 columns,
/// then halved along whichever dimension adds less packing until there is an item per thread:
/// every row cut re-packs op(B)'s columns, every column cut op(A)'s rows (docs/performance.md,
/// "kt's own host kernel against OpenBLAS"). Accumulators in scratch cap an item at
/// kGemmHostAccElements (1 MiB of fp32: L2-sized). Rows are multiples of MR, columns of NR,
/// except where one tile covers the whole extent.
struct GemmHostPlan {
  std::int64_t rows, cols;
};
inline constexpr std::int64_t kGemmHostAccElements = std::int64_t(1) << 18;

/// len cut into tiles of at most max_tile, as even as multiples of r allow: the tile size.
inline std::int64_t gemm_even_tile(std::int64_t len, std::int64_t max_tile, std::int64_t r) {
  const std::int64_t tiles = (len + max_tile - 1) / max_tile;
  return ((len + tiles - 1) / tiles + r - 1) / r * r;
}

template <class Tiles>
GemmHostPlan gemm_host_plan(std::int64_t m, std::int64_t n, std::int64_t batch, std::int64_t threads,
                            bool in_place) {
  constexpr int MR = Tiles::MR, NR = Tiles::NR;
  std::int64_t mi = (m + MR - 1) / MR * MR, ni = gemm_even_tile(n, 2048, NR);
  const auto count = [&] { return (m + mi - 1) / mi * ((n + ni - 1) / ni) * batch; };
  if (count() < threads || (!in_place && ni > Tiles::NC)) ni = gemm_even_tile(n, Tiles::NC, NR);
  while (count() < threads && (mi > 4 * MR || ni > 4 * NR)) {
    const std::int64_t mt = (m + mi - 1) / mi, nt = (n + ni - 1) / ni;
    const bool cut_rows = ni <= 4 * NR || (mi > 4 * MR && mt * n < nt * m);
    if (cut_rows) mi = gemm_even_tile(m, mi / 2, MR);
    else ni = gemm_even_tile(n, ni / 2, NR);
  }
  if (!in_place)
    while (mi * ni > kGemmHostAccElements && mi > MR) mi = gemm_even_tile(m, mi / 2, MR);
  return {mi, ni};
}

/// One MR x NR micro-tile of the accumulators at ct (rows ld apart), mv x nv of it inside C:
/// a full tile in place, an edge tile through a full-size buffer.
template <int MR, int NR, class Acc>
KOKKOS_INLINE_FUNCTION void gemm_host_micro_tile(int kc, const Acc* ap, const Acc* bp, Acc* ct, std::int64_t ld,
                                                 int mv, int nv, bool first) {
  if (mv == MR && nv == NR) return gemm_micro<MR, NR>(kc, ap, bp, ct, int(ld), first);
  Acc buf[MR * NR];
  if (!first)
    for (int i = 0; i < mv; ++i)
      for (int j = 0; j < nv; ++j) buf[i * NR + j] = ct[i * ld + j];
  gemm_micro<MR, NR>(kc, ap, bp, buf, NR, first);
  for (int i = 0; i < mv; ++i)
    for (int j = 0; j < nv; ++j) ct[i * ld + j] = buf[i * NR + j];
}

/// acc (rows ld apart) += op(A) op(B) over the tile, in GotoBLAS' loop order: per K block op(B)
/// is packed once, then the rows are walked in MC blocks, op(A) packed for each. A last panel
/// of op(B) at most NR / 2 columns wide is packed and computed NR / 2 wide, as on the small
/// path (kt/backend/impl/gemm_host_small.hpp): less padding where C has few columns. Host code
/// called from host kernels' lambdas, which a Cuda build marks __host__ __device__: nvcc would
/// flag its calls of the host-only packing (warning 20011), so the check is off for it.
#if defined(__CUDACC__)
#pragma nv_exec_check_disable
#endif
template <class Tiles, class T, class C, class Acc>
KOKKOS_INLINE_FUNCTION void gemm_host_tile(const GemmLayout<T, C>& L, const GemmTile& t, const GemmScratch<Acc>& S,
                                           const GemmBuffers<Acc>& buf, Acc* acc, std::int64_t ld) {
  constexpr int MR = Tiles::MR, NR = Tiles::NR, NH = NR / 2, KC = Tiles::KC, MC = Tiles::MC;
  const int np = (t.cols + NR - 1) / NR, full = t.cols / NR, tail = t.cols - full * NR;
  const bool narrow = tail > 0 && tail <= NH;
  const T* const ab = L.a_of(t);
  const T* const bb = L.b_of(t);
  for (std::int64_t k0 = 0; k0 < L.k; k0 += KC) {
    const int kc = int(L.k - k0 < KC ? L.k - k0 : KC);
    const T* const bk = bb + k0 * L.bcs;
    gemm_pack_host<NR>(buf.b, bk, L.brs, L.bcs, narrow ? full * NR : t.cols, narrow ? full : np, kc, S.b_stride);
    if (narrow)
      gemm_pack_host<NH>(buf.b + full * S.b_stride, bk + full * NR * L.brs, L.brs, L.bcs, tail, 1, kc, S.b_stride);
    for (int ic = 0; ic < t.rows; ic += MC) {
      const int mb = t.rows - ic < MC ? t.rows - ic : MC, mp = (mb + MR - 1) / MR;
      gemm_pack_host<MR>(buf.a, ab + ic * L.ars + k0 * L.acs, L.ars, L.acs, mb, mp, kc, S.a_stride);
      for (int jr = 0; jr < np; ++jr) {
        const int nv = t.cols - jr * NR < NR ? t.cols - jr * NR : NR;
        for (int ir = 0; ir < mp; ++ir) {
          const int mv = mb - ir * MR < MR ? mb - ir * MR : MR;
          const Acc* const ap = buf.a + ir * S.a_stride;
          const Acc* const bp = buf.b + jr * S.b_stride;
          Acc* const ct = acc + std::int64_t(ic + ir * MR) * ld + jr * NR;
          if (narrow && jr == full) gemm_host_micro_tile<MR, NH>(kc, ap, bp, ct, ld, mv, nv, k0 == 0);
          else gemm_host_micro_tile<MR, NR>(kc, ap, bp, ct, ld, mv, nv, k0 == 0);
        }
      }
    }
  }
}

/// Work item `item` of gemm_kokkos_host in the scratch `buf`: its tile's product into the
/// accumulators, then alpha, beta and the rounding to C. Out of line and free of the execution
/// space, so Serial (the one-thread path) and OpenMP run one compiled copy.
template <class Tiles, class T, class C, class Acc>
__attribute__((noinline)) void gemm_host_item(const GemmLayout<T, C>& L, const GemmScratch<Acc>& S,
                                              const GemmBuffers<Acc>& buf, std::int64_t item, bool in_place,
                                              Acc alpha, Acc beta) {
  const GemmTile t = L.tile(item);
  C* const cb = L.c_of(t);
  // The accumulators: C's own block, or the scratch block (rows ni apart).
  Acc* acc = buf.acc;
  std::int64_t ld = L.ni;
  if constexpr (std::is_same_v<C, Acc>) {
    if (in_place) acc = cb, ld = L.ldc;
  }
  gemm_host_tile<Tiles>(L, t, S, buf, acc, ld);
  if (in_place) {  // only alpha is left to apply
    if (alpha != Acc(1))
      for (int i = 0; i < t.rows; ++i)
        for (int j = 0; j < t.cols; ++j) acc[i * ld + j] *= alpha;
    return;
  }
  for (int i = 0; i < t.rows; ++i) {
    C* const ci = cb + i * L.ldc;
    const Acc* const si = acc + i * ld;
    if (beta == Acc(0)) {
      for (int j = 0; j < t.cols; ++j) gemm_store<false>(ci[j], si[j], alpha, beta);
    } else {
      for (int j = 0; j < t.cols; ++j) gemm_store<true>(ci[j], si[j], alpha, beta);
    }
  }
}

/// C[b] = alpha * op(A[b]) * op(B[b]) + beta * C[b] on a host execution space, one thread per
/// work item (a block of C: gemm_host_plan) running gemm_host_item. The accumulators live in C
/// itself when C is the accumulation type and beta == 0 (alpha applied at the end), else in a
/// scratch block of the item's size, written to C once by gemm_store. Against a team tile per
/// C tile (kt/backend/impl/gemm_kokkos.hpp) this packs op(B) m / MC times less and, in place,
/// keeps no accumulator tile in cache. The sums are those of the tiled kernel (k ascending, one
/// multiply-add at a time, exact accumulators between K blocks), so the results are the same
/// bits at any thread count and item size.
template <class Exec, class T, class C>
void gemm_kokkos_host(const Exec& exec, const GemmProblem<T, C>& p) {
  using Acc = gemm_acc_t<T>;
  // Every host space has the same tiles: name them by one, so its compiled code is shared.
  using Tiles = GemmTiles<Kokkos::DefaultHostExecutionSpace, Acc>;
  const bool in_place = std::is_same_v<C, Acc> && p.beta == 0;
  const GemmHostPlan plan = gemm_host_plan<Tiles>(p.m, p.n, p.batch, exec.concurrency(), in_place);
  const GemmLayout<T, C> L(p, plan.rows, plan.cols);
  const auto S = GemmScratch<Acc>::template of<Tiles>(Tiles::MC / Tiles::MR, (plan.cols + Tiles::NR - 1) / Tiles::NR,
                                                      in_place ? 0 : std::size_t(plan.rows * plan.cols));
  const Acc alpha = Acc(p.alpha), beta = Acc(p.beta);
  using Policy = Kokkos::TeamPolicy<Exec, Kokkos::Schedule<Kokkos::Dynamic>>;
  using Member = typename Policy::member_type;
  const Policy policy =
      Policy(exec, L.items(), 1, 1).set_scratch_size(Tiles::scratch_level, Kokkos::PerTeam(S.bytes()));
  Kokkos::parallel_for("kt::gemm_kokkos", policy, [=](const Member& team) {
    const GemmBuffers<Acc> buf = S.carve(team.team_scratch(int(Tiles::scratch_level)));
    gemm_host_item<Tiles>(L, S, buf, team.league_rank(), in_place, alpha, beta);
  });
}

}  // namespace kt::impl
