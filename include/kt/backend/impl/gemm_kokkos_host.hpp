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
#include "kt/backend/impl/gemm_micro.hpp"
#include "kt/core/error.hpp"

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
///  - otherwise (rows contiguous, cs == 1): R rows at a time, so R streams run side by side,
///    loaded in groups of at most 16 (a 32-wide AVX-512 panel loaded at once spills: its
///    16-bit sources packed 2.5x slower per element than a 16-wide panel).
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
      for (int c = 0; c < kc; ++c)
        for (int g = 0; g < R; g += G) {
          Acc v[G];  // all G loads before the stores: dst and src may alias as far as GCC knows
          for (int i = 0; i < G; ++i) v[i] = gemm_load<Acc>(s[(g + i) * rs + c * cs]);
          for (int i = 0; i < G; ++i) d[c * R + g + i] = v[i];
        }
    }
  }
  for (int q = full; q < panels; ++q) {  // the edge panel, zero-filled
    const int valid = rows - q * R;
    Acc* const d = dst + std::int64_t(q) * panel_stride;
    const T* const s = src + std::int64_t(q) * R * rs;
    for (int c = 0; c < kc; ++c)
      for (int i = 0; i < R; ++i) d[c * R + i] = i < valid ? gemm_load<Acc>(s[i * rs + c * cs]) : Acc(0);
  }
}

/// C[b] = alpha * op(A[b]) * op(B[b]) + beta * C[b] on a host execution space, in GotoBLAS'
/// loop order. A work item is a block of C (whole rows, up to 2048 columns); per K block it
/// packs op(B) once (KC x its columns) and then walks the rows in MC blocks, packing op(A)
/// (MC x KC) for each. The accumulators live in C itself when C is the accumulation type and
/// beta == 0 (alpha applied at the end), else in a scratch block of the item's size, written to
/// C once as alpha * acc + beta * C (16-bit C rounded once). Against a team tile per C tile
/// (kt/backend/impl/gemm_kokkos.hpp) this packs op(B) m / MC times less and, in place, keeps no
/// accumulator tile in cache. The sums are those of the tiled kernel (k ascending, one
/// multiply-add at a time, exact accumulators between K blocks), so the results are the same
/// bits at any thread count and item size.
template <class Exec, class T, class C>
void gemm_kokkos_host(const Exec& exec, const GemmProblem<T, C>& p) {
  using Acc = gemm_acc_t<T>;
  using Tiles = GemmTiles<Exec, Acc>;
  constexpr int MR = Tiles::MR, NR = Tiles::NR, KC = Tiles::KC, MC = Tiles::MC;
  const bool in_place = std::is_same_v<C, Acc> && p.beta == 0;
  const auto split = [](std::int64_t len, std::int64_t max_tile, std::int64_t r) {
    const std::int64_t tiles = (len + max_tile - 1) / max_tile;
    return ((len + tiles - 1) / tiles + r - 1) / r * r;
  };
  // Work items: blocks of C, at least one per thread. One thread takes whole rows and up to
  // 2048 columns: every operand is packed once (op(B)'s block is then KC x 2048, 3 MiB in
  // L3), which beats items of 512 columns. For more threads, C is cut into columns of NC
  // (op(B)'s block stays in L2), which beats rows of 2048 columns, then halved along whichever
  // dimension adds less packing: every row cut re-packs op(B)'s columns, every column cut
  // op(A)'s rows. (docs/performance.md, "kt's own host kernel against OpenBLAS".)
  // Accumulators in scratch cap an item at kAccElements (1 MiB of fp32: L2-sized).
  constexpr std::int64_t kAccElements = std::int64_t(1) << 18;
  std::int64_t mi = (p.m + MR - 1) / MR * MR, ni = split(p.n, 2048, NR);
  const std::int64_t threads = exec.concurrency();
  const auto count = [&] { return (p.m + mi - 1) / mi * ((p.n + ni - 1) / ni) * p.batch; };
  if (count() < threads || (!in_place && ni > Tiles::NC)) ni = split(p.n, Tiles::NC, NR);
  while (count() < threads && (mi > 4 * MR || ni > 4 * NR)) {
    const std::int64_t mt = (p.m + mi - 1) / mi, nt = (p.n + ni - 1) / ni;
    const bool cut_rows = ni <= 4 * NR || (mi > 4 * MR && mt * p.n < nt * p.m);
    if (cut_rows) mi = split(p.m, mi / 2, MR);
    else ni = split(p.n, ni / 2, NR);
  }
  if (!in_place)
    while (mi * ni > kAccElements && mi > MR) mi = split(p.m, mi / 2, MR);
  const std::int64_t mt = (p.m + mi - 1) / mi, nt = (p.n + ni - 1) / ni;
  KT_REQUIRE(mt * nt * p.batch <= std::int64_t(INT32_MAX), "kt::gemm_kokkos: too many tiles: ",
             mt, " x ", nt, " x ", p.batch);
  const int a_stride = KC * MR + Tiles::pad, b_stride = KC * NR + Tiles::pad;
  const std::size_t a_len = std::size_t(MC / MR) * a_stride, b_len = std::size_t((ni + NR - 1) / NR) * b_stride,
                    acc_len = in_place ? 0 : std::size_t(mi * ni);
  const std::size_t bytes = (a_len + b_len + acc_len) * sizeof(Acc) + 3 * 64;
  // op(A)(i, l) = a[i*ars + l*acs]; op(B)(l, j) = b[j*brs + l*bcs] (B is packed as op(B)^T).
  const bool ta = p.trans_a == Transpose::Yes, tb = p.trans_b == Transpose::Yes;
  const std::int64_t ars = ta ? 1 : p.lda, acs = ta ? p.lda : 1, brs = tb ? p.ldb : 1, bcs = tb ? 1 : p.ldb;
  const Acc alpha = Acc(p.alpha), beta = Acc(p.beta);
  const std::int64_t m = p.m, n = p.n, k = p.k, ldc = p.ldc;
  using Policy = Kokkos::TeamPolicy<Exec, Kokkos::Schedule<Kokkos::Dynamic>>;
  using Member = typename Policy::member_type;
  const Policy policy = Policy(exec, int(mt * nt * p.batch), 1, 1)
                            .set_scratch_size(Tiles::scratch_level, Kokkos::PerTeam(bytes));
  Kokkos::parallel_for("kt::gemm_kokkos", policy, [=](const Member& team) {
    const std::int64_t t = team.league_rank();
    const std::int64_t bi = t / (mt * nt), ti = t / nt % mt, tj = t % nt;
    const std::int64_t i0 = ti * mi, j0 = tj * ni;
    const int mcur = int(m - i0 < mi ? m - i0 : mi), ncur = int(n - j0 < ni ? n - j0 : ni);
    const int np = (ncur + NR - 1) / NR;
    auto& scratch = team.team_scratch(int(Tiles::scratch_level));
    Acc* const as = static_cast<Acc*>(scratch.get_shmem_aligned(a_len * sizeof(Acc), 64));
    Acc* const bs = static_cast<Acc*>(scratch.get_shmem_aligned(b_len * sizeof(Acc), 64));
    const T* const ab = p.a + bi * p.stride_a + i0 * ars;
    const T* const bb = p.b + bi * p.stride_b + j0 * brs;
    C* const cb = p.c + bi * p.stride_c + i0 * ldc + j0;
    // The accumulators: C's own block, or the scratch block (rows ni apart).
    Acc* acc = nullptr;
    std::int64_t ld = ni;
    if constexpr (std::is_same_v<C, Acc>) {
      if (in_place) acc = cb, ld = ldc;
    }
    if (!acc) acc = static_cast<Acc*>(scratch.get_shmem_aligned(acc_len * sizeof(Acc), 64));
    for (std::int64_t k0 = 0; k0 < k; k0 += KC) {
      const int kc = int(k - k0 < KC ? k - k0 : KC);
      const bool first = k0 == 0;
      gemm_pack_host<NR>(bs, bb + k0 * bcs, brs, bcs, ncur, np, kc, b_stride);
      for (int ic = 0; ic < mcur; ic += MC) {
        const int mb = mcur - ic < MC ? mcur - ic : MC, mp = (mb + MR - 1) / MR;
        gemm_pack_host<MR>(as, ab + ic * ars + k0 * acs, ars, acs, mb, mp, kc, a_stride);
        for (int jr = 0; jr < np; ++jr) {
          const int nv = ncur - jr * NR < NR ? ncur - jr * NR : NR;
          for (int ir = 0; ir < mp; ++ir) {
            const int mv = mb - ir * MR < MR ? mb - ir * MR : MR;
            Acc* const ct = acc + std::int64_t(ic + ir * MR) * ld + jr * NR;
            if (mv == MR && nv == NR) {
              gemm_micro<MR, NR>(kc, as + ir * a_stride, bs + jr * b_stride, ct, int(ld), first);
            } else {  // an edge micro-tile: through a full-size buffer
              Acc buf[MR * NR];
              if (!first)
                for (int i = 0; i < mv; ++i)
                  for (int j = 0; j < nv; ++j) buf[i * NR + j] = ct[i * ld + j];
              gemm_micro<MR, NR>(kc, as + ir * a_stride, bs + jr * b_stride, buf, NR, first);
              for (int i = 0; i < mv; ++i)
                for (int j = 0; j < nv; ++j) ct[i * ld + j] = buf[i * NR + j];
            }
          }
        }
      }
    }
    // The epilogue, as the tiled kernel's: C = alpha * acc (+ beta * C), rounded once;
    // beta == 0 never reads C.
    if (in_place) {
      if (alpha != Acc(1))
        for (int i = 0; i < mcur; ++i)
          for (int j = 0; j < ncur; ++j) acc[i * ld + j] *= alpha;
    } else {
      for (int i = 0; i < mcur; ++i) {
        C* const ci = cb + i * ldc;
        const Acc* const si = acc + i * ld;
        if (beta == Acc(0)) {
          for (int j = 0; j < ncur; ++j) ci[j] = static_cast<C>(alpha * si[j]);
        } else {
          for (int j = 0; j < ncur; ++j) ci[j] = static_cast<C>(alpha * si[j] + beta * gemm_load<Acc>(ci[j]));
        }
      }
    }
  });
}

}  // namespace kt::impl
