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
#include "kt/backend/impl/gemm_micro.hpp"
#include "kt/core/dtype.hpp"
#include "kt/core/error.hpp"
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

/// The team kernel (GPUs): one team per mc x nc tile of C, as described at the top, with the
/// tile sizes of Tiles, `team_size` x `vector_length` threads per team and the tiles in
/// scratch level `scratch_level`.
template <class Tiles, class Exec, class T, class C>
void gemm_kokkos_team(const Exec& exec, const GemmProblem<T, C>& p, int team_size, int vector_length,
                      int scratch_level) {
  using Acc = gemm_acc_t<T>;
  constexpr int MR = Tiles::MR, NR = Tiles::NR, KC = Tiles::KC;
  const std::int64_t mc = Tiles::MC, nc = Tiles::NC;
  const std::int64_t mt = (p.m + mc - 1) / mc, nt = (p.n + nc - 1) / nc;
  KT_REQUIRE(mt * nt * p.batch <= std::int64_t(INT32_MAX), "kt::gemm_kokkos: too many tiles: ",
             mt, " x ", nt, " x ", p.batch);
  const int mcap = int(mc), ncap = int(nc), ldcs = int(nc) + Tiles::c_pad;
  // Scratch: packed A (mc x KC), packed B (KC x nc), C tile (mc x nc); +64 B to align each.
  const int a_stride = KC * MR + Tiles::pad, b_stride = KC * NR + Tiles::pad;
  const std::size_t a_len = std::size_t(mc / MR) * a_stride, b_len = std::size_t(nc / NR) * b_stride,
                    c_len = std::size_t(mc) * std::size_t(nc + Tiles::c_pad);
  const std::size_t bytes = (a_len + b_len + c_len) * sizeof(Acc) + 3 * 64;

  // op(A)(i, l) = a[i*ars + l*acs]; op(B)(l, j) = b[j*brs + l*bcs] (B is packed as op(B)^T).
  const bool ta = p.trans_a == Transpose::Yes, tb = p.trans_b == Transpose::Yes;
  const std::int64_t ars = ta ? 1 : p.lda, acs = ta ? p.lda : 1;
  const std::int64_t brs = tb ? p.ldb : 1, bcs = tb ? 1 : p.ldb;
  const std::int64_t m = p.m, n = p.n, k = p.k, ldc = p.ldc;
  const std::int64_t sa = p.stride_a, sb = p.stride_b, sc = p.stride_c;
  const T* const a = p.a;
  const T* const b = p.b;
  C* const c = p.c;
  const Acc alpha = Acc(p.alpha), beta = Acc(p.beta);

  // Dynamic: tiles go to whichever thread is free, which evens out edge tiles and cores
  // shared with other processes (the result does not depend on who computes a tile).
  using Policy = Kokkos::TeamPolicy<Exec, Kokkos::Schedule<Kokkos::Dynamic>>;
  using Member = typename Policy::member_type;
  const Policy policy = Policy(exec, int(mt * nt * p.batch), team_size, vector_length)
                            .set_scratch_size(scratch_level, Kokkos::PerTeam(bytes));
  Kokkos::parallel_for("kt::gemm_kokkos", policy, KOKKOS_LAMBDA(const Member& team) {
    const std::int64_t t = team.league_rank();
    const std::int64_t bi = t / (mt * nt), ti = t / nt % mt, tj = t % nt;
    const std::int64_t i0 = ti * mcap, j0 = tj * ncap;
    const int mcur = int(m - i0 < mcap ? m - i0 : mcap), ncur = int(n - j0 < ncap ? n - j0 : ncap);
    const int mp = (mcur + MR - 1) / MR, np = (ncur + NR - 1) / NR;  // micro-panels in use
    auto& scratch = team.team_scratch(scratch_level);
    Acc* const as = static_cast<Acc*>(scratch.get_shmem_aligned(a_len * sizeof(Acc), 64));
    Acc* const bs = static_cast<Acc*>(scratch.get_shmem_aligned(b_len * sizeof(Acc), 64));
    Acc* const cs = static_cast<Acc*>(scratch.get_shmem_aligned(c_len * sizeof(Acc), 64));
    const T* const ab = a + bi * sa + i0 * ars;
    const T* const bb = b + bi * sb + j0 * brs;
    for (std::int64_t k0 = 0; k0 < k; k0 += KC) {
      const int kc = int(k - k0 < KC ? k - k0 : KC);
      gemm_pack<MR>(team, as, ab + k0 * acs, ars, acs, mcur, mp, kc, a_stride);
      gemm_pack<NR>(team, bs, bb + k0 * bcs, brs, bcs, ncur, np, kc, b_stride);
      team.team_barrier();
      // jr outside, ir inside: on the host one B micro-panel stays in L1 for all of the tile's
      // A micro-panels; on a GPU, team ranks take jr and vector lanes take ir.
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, np), [&](int jr) {
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, mp), [&](int ir) {
          gemm_micro<MR, NR>(kc, as + ir * a_stride, bs + jr * b_stride,
                             cs + ir * MR * ldcs + jr * NR, ldcs, k0 == 0);
        });
      });
      team.team_barrier();
    }
    // Epilogue: C = alpha * acc + beta * C, once per element; beta == 0 never reads C.
    C* const cb = c + bi * sc + i0 * ldc + j0;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, mcur), [&](int i) {
      C* const ci = cb + i * ldc;
      const Acc* const si = cs + i * ldcs;
      if (beta == Acc(0)) {
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, ncur), [&](int j) {
          ci[j] = static_cast<C>(alpha * si[j]);
        });
      } else {
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, ncur), [&](int j) {
          ci[j] = static_cast<C>(alpha * si[j] + beta * gemm_load<Acc>(ci[j]));
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
