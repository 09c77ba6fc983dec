#pragma once
/// \file kt/backend/impl/gemm_kokkos.hpp
/// kt's portable GEMM kernel: C[b] = alpha * op(A[b]) * op(B[b]) + beta * C[b] (row-major) with
/// Kokkos hierarchical parallelism only, so it runs on every execution space. Reached through
/// kt::gemm / kt::matmul (GemmBackend::Kokkos), which validate the problem and handle k == 0.
///
/// Design (Goto/BLIS blocking):
///  - Host spaces (one thread per team): kt/backend/impl/gemm_kokkos_host.hpp, GotoBLAS' loop
///    order over large blocks of C, op(B) packed once per block; small fp32/fp64 products on
///    one thread: kt/backend/impl/gemm_host_small.hpp, on the calling thread, unpacked.
///  - GPUs, below (host CI runs the same code on OpenMP teams: gemm_kokkos_team_on_host): the
///    league runs over batch x (m/mc) x (n/nc) tiles of C; one team owns one
///    C tile. For each K block of KC, the team packs op(A) (mc x kc) and op(B) (kc x nc) into
///    team scratch, converted to the accumulation type, as "micro-panels": MR rows (NR
///    columns) of op(A) (op(B)) interleaved per k, so the micro-kernel streams two contiguous
///    arrays. Rows/columns past the matrix edge are packed as zeros, so the micro-kernel never
///    has an edge case (the wasted flops are at most one micro-tile row/column per tile).
///  - Each thread owns MR x NR micro-tiles held in a fixed-size local array; its accumulators
///    live in a scratch C tile (in the accumulation type) between K blocks, and the epilogue
///    writes C = alpha * acc + beta * C once, rounding 16-bit outputs once.
///  - Determinism: every C element is the sum over k = 0, 1, ..., K-1 in that order, one
///    multiply-add at a time, in the same code whatever the tile sizes, thread count or
///    schedule (K is never split across threads; the scratch tile stores exact accumulators).
///    So results are bit-identical on Serial and OpenMP with any number of threads (the host
///    kernel forms the same sums).

#include "kt/core/impl/internal.hpp"

#include "kt/backend/gemm_problem.hpp"
#include "kt/backend/impl/gemm_host_small.hpp"
#include "kt/backend/impl/gemm_kokkos_host.hpp"
#include "kt/backend/impl/gemm_layout.hpp"
#include "kt/backend/impl/gemm_micro.hpp"
#include "kt/core/dtype.hpp"
#include "kt/core/profiling.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace kt::impl {

/// Packs rows [0, panels*R) x columns [0, kc) of X(r, c) = src[r*rs + c*cs] as micro-panels:
/// dst[(r / R) * panel_stride + c * R + r % R], zero for r >= rows. The inner (vector) loop
/// runs along whichever index is contiguous in memory, so the lanes coalesce their reads.
template <int R, class Acc, class T, class Member>
KOKKOS_INLINE_FUNCTION void gemm_pack(const Member& team, Acc* dst, const T* src, std::int64_t rs,
                                      std::int64_t cs, int rows, int panels, int kc, int panel_stride) {
  if (cs == 1) {  // X's rows are contiguous (A as stored, or B transposed): lanes along c
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, panels * R), [&](int r) {
      Acc* const d = dst + (r / R) * panel_stride + r % R;
      const T* const s = src + r * rs;
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, kc), [&](int c) {
        d[c * R] = r < rows ? gemm_load<Acc>(s[c]) : Acc(0);
      });
    });
  } else {  // X's columns are contiguous: lanes along r
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, kc), [&](int c) {
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, panels * R), [&](int r) {
        dst[(r / R) * panel_stride + c * R + r % R] = r < rows ? gemm_load<Acc>(src[r + c * cs]) : Acc(0);
      });
    });
  }
}

/// The team kernel (GPUs): one team per MC x NC tile of C, as described at the top, with the
/// tile sizes of Tiles, `team_size` x `vector_length` threads per team and the tiles in
/// scratch level `scratch_level`.
template <class Tiles, class Exec, class T, class C>
void gemm_kokkos_team(const Exec& exec, const GemmProblem<T, C>& p, int team_size, int vector_length,
                      int scratch_level) {
  using Acc = gemm_acc_t<T>;
  constexpr int MR = Tiles::MR, NR = Tiles::NR, KC = Tiles::KC;
  const GemmLayout<T, C> L(p, Tiles::MC, Tiles::NC);
  // Scratch: packed A (MC x KC), packed B (KC x NC), the C tile (MC x NC, rows ldcs apart).
  const int ldcs = Tiles::NC + Tiles::c_pad;
  const auto S = GemmScratch<Acc>::template of<Tiles>(Tiles::MC / MR, Tiles::NC / NR, std::size_t(Tiles::MC) * ldcs);
  const Acc alpha = Acc(p.alpha), beta = Acc(p.beta);
  // Dynamic: tiles go to whichever thread is free, which evens out edge tiles and cores
  // shared with other processes (the result does not depend on who computes a tile).
  using Policy = Kokkos::TeamPolicy<Exec, Kokkos::Schedule<Kokkos::Dynamic>>;
  using Member = typename Policy::member_type;
  const Policy policy = Policy(exec, L.items(), team_size, vector_length)
                            .set_scratch_size(scratch_level, Kokkos::PerTeam(S.bytes()));
  Kokkos::parallel_for("kt::gemm_kokkos", policy, KOKKOS_LAMBDA(const Member& team) {
    const GemmTile t = L.tile(team.league_rank());
    const int mp = (t.rows + MR - 1) / MR, np = (t.cols + NR - 1) / NR;  // micro-panels in use
    const GemmBuffers<Acc> buf = S.carve(team.team_scratch(scratch_level));
    const T* const ab = L.a_of(t);
    const T* const bb = L.b_of(t);
    for (std::int64_t k0 = 0; k0 < L.k; k0 += KC) {
      const int kc = int(L.k - k0 < KC ? L.k - k0 : KC);
      gemm_pack<MR>(team, buf.a, ab + k0 * L.acs, L.ars, L.acs, t.rows, mp, kc, S.a_stride);
      gemm_pack<NR>(team, buf.b, bb + k0 * L.bcs, L.brs, L.bcs, t.cols, np, kc, S.b_stride);
      team.team_barrier();
      // jr outside, ir inside: on the host one B micro-panel stays in L1 for all of the tile's
      // A micro-panels; on a GPU, team ranks take jr and vector lanes take ir.
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, np), [&](int jr) {
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, mp), [&](int ir) {
          gemm_micro<MR, NR>(kc, buf.a + ir * S.a_stride, buf.b + jr * S.b_stride,
                             buf.acc + ir * MR * ldcs + jr * NR, ldcs, k0 == 0);
        });
      });
      team.team_barrier();
    }
    // Epilogue: C = alpha * acc + beta * C, once per element; beta == 0 never reads C.
    C* const cb = L.c_of(t);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, t.rows), [&](int i) {
      C* const ci = cb + i * L.ldc;
      const Acc* const si = buf.acc + i * ldcs;
      if (beta == Acc(0)) {
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, t.cols), [&](int j) {
          gemm_store<false>(ci[j], si[j], alpha, beta);
        });
      } else {
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, t.cols), [&](int j) {
          gemm_store<true>(ci[j], si[j], alpha, beta);
        });
      }
    });
  });
}

/// C[b] = alpha * op(A[b]) * op(B[b]) + beta * C[b] on `exec`; pointers in Exec's memory space,
/// the problem valid. Asynchronous like any Kokkos kernel: fence `exec` before reading C on the
/// host.
template <class Exec, class T, class C>
void gemm_kokkos(const Exec& exec, const GemmProblem<T, C>& p) {
  KT_PROFILE_REGION("kt::gemm_kokkos");
  if (p.empty() || p.k == 0) return;
  if constexpr (GemmTiles<Exec, gemm_acc_t<T>>::team_size == 1) {
    if constexpr (std::is_same_v<T, C> && std::is_floating_point_v<T>) {
      if (exec.concurrency() == 1 && gemm_host_small_fits(p)) {
        exec.fence();  // the calling thread runs it: earlier work on exec must be done
        gemm_host_small(p);
        return;
      }
    }
    gemm_kokkos_host(exec, p);
  } else {
    using Tiles = GemmTiles<Exec, gemm_acc_t<T>>;
    gemm_kokkos_team<Tiles>(exec, p, Tiles::team_size, Tiles::vector_length, Tiles::scratch_level);
  }
}

/// The team (GPU) kernel's code on a host execution space, for tests: gemm_kokkos runs the host
/// kernel there, and this lets host CI check the team kernel's packing, edge tiles, K blocks
/// and epilogue on every commit. Teams of up to 4 threads with one vector lane; the tiles in
/// scratch level 1 (a host's level 0 holds 32 KiB, less than the fp64 tiles).
template <class Exec, class T, class C>
void gemm_kokkos_team_on_host(const Exec& exec, const GemmProblem<T, C>& p) {
  static_assert(Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible,
                "kt::impl::gemm_kokkos_team_on_host: a host execution space");
  if (p.empty() || p.k == 0) return;
  const int team_size = static_cast<int>(exec.concurrency() < 4 ? exec.concurrency() : 4);
  gemm_kokkos_team<GemmTeamTiles<gemm_acc_t<T>>>(exec, p, team_size, 1, 1);
}

}  // namespace kt::impl
