#pragma once
// Two independent products at once: a layer's weight and input gradients, which read the same
// upstream gradient and nothing of each other. Where both go to the BLAS on every host thread
// (kt/backend/impl/gemm_blas.hpp), they run in one fork-join, each cut into pieces for its
// share of the threads, instead of two fork-joins that each cut one product for all of them. A
// thread then runs a larger piece of one product and re-reads and re-packs less of the operand
// its product's pieces share (docs/performance.md, "Paired products").
//
// The threads are shared out in proportion to the products' flops. A pair that cannot be shared
// out evenly runs in turn, as do pairs whose pieces would be small, pairs another back-end
// serves (deterministic mode's among them) and products small enough for one thread each.

#include "kt/core/impl/internal.hpp"

#include "kt/backend/gemm_problem.hpp"
#include "kt/backend/impl/gemm_blas.hpp"
#include "kt/backend/impl/gemm_dispatch.hpp"
#include "kt/core/impl/host_work.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace kt::impl {

/// How far above an even share of the flops (the pair's flops / threads) a thread's pieces may
/// go. On two threads a pair wins while its larger product is below ~56% of the flops: the two
/// Xeon cores ran a 512-wide layer's backward products 1.73x faster than one core, and each 3%
/// slower than alone when both ran at once (docs/performance.md, "Paired products").
inline constexpr double kGemmPairImbalance = 1.1;

/// The fewest flops of a paired piece. Smaller products need not take less time whole on one
/// thread than cut in two on two: OpenBLAS' SkylakeX kernels for small products take pieces
/// under about a million multiply-adds, and the Xeon ran a pair of 2.1 and of 2.6 MFLOP
/// products at 0.79x and 0.81x the speed of the same products in turn, where 4.2 MFLOP pairs
/// (128³) ran at 1.17x (bench_linear, "grads").
inline constexpr double kGemmPairMinPieceFlops = 4e6;

/// The pieces of p and q when they run as a pair on `threads` threads, or {0, 0} when they run
/// in turn: uneven shares (kGemmPairImbalance) and small pieces (kGemmPairMinPieceFlops).
template <class T>
std::pair<int, int> gemm_pair_pieces(const GemmProblem<T>& p, const GemmProblem<T>& q, int threads) {
  if (threads < 2) return {0, 0};
  const double fp = p.flops(), fq = q.flops();
  const int share = static_cast<int>(std::lround(threads * fp / (fp + fq)));
  const int pp = std::min(std::clamp(share, 1, threads - 1), gemm_piece_count(p, threads));
  const int pq = std::min(threads - pp, gemm_piece_count(q, threads));
  const double slowest = std::max(fp / pp, fq / pq), even = (fp + fq) / threads;
  if (slowest > kGemmPairImbalance * even || std::min(fp / pp, fq / pq) < kGemmPairMinPieceFlops) return {0, 0};
  return {pp, pq};
}

/// Runs two valid, independent problems on `exec` (neither writes what the other reads): at
/// once where the BLAS serves both on every thread and gemm_pair_pieces shares the threads out,
/// else in turn as gemm_dispatch runs them. Counted in the tuning statistics and recorded in a
/// host step as gemm_dispatch's products are.
template <class Exec, class T>
void gemm_dispatch_pair(const Exec& exec, const GemmProblem<T>& p, const GemmProblem<T>& q) {
  if (p.empty() || p.k == 0 || q.empty() || q.k == 0) {
    gemm_dispatch(exec, p, GemmOptions());
    gemm_dispatch(exec, q, GemmOptions());
    return;
  }
  const GemmChoice cp = choose_gemm(exec, p, GemmOptions()), cq = choose_gemm(exec, q, GemmOptions());
  if constexpr (host_library_ok_v<Exec, T> && have_blas_gemm) {
    const int threads = static_cast<int>(exec.concurrency());
    const bool on_blas = cp.backend == GemmBackend::Blas && cq.backend == GemmBackend::Blas &&
                         cp.threads == threads && cq.threads == threads;
    const auto [p_pieces, q_pieces] = on_blas ? gemm_pair_pieces(p, q, threads) : std::pair<int, int>{0, 0};
    if (p_pieces > 0) {
      const auto run = [exec, p, q, p_pieces = p_pieces, q_pieces = q_pieces] {
        TuningState::instance().calls[static_cast<int>(GemmBackend::Blas)].fetch_add(2, std::memory_order_relaxed);
        exec.fence();  // the library calls run on the host threads: earlier kernels must be done
        gemm_blas_pair(p, p_pieces, q, q_pieces);
      };
      if (HostWork* recording = host_recording<Exec>()) return record_host_work(recording, run);
      return run();
    }
  }
  gemm_dispatch_chosen(exec, p, cp);
  gemm_dispatch_chosen(exec, q, cq);
}

}  // namespace kt::impl

// kt_compiled (kt/core/impl/compiled.hpp): beside gemm_dispatch, for each dtype on every device.
#define KT_ETI_GEMM_PAIR_ONE_TYPE(E, T, KW) \
  KW void kt::impl::gemm_dispatch_pair<E, T>(const E&, const kt::GemmProblem<T>&, const kt::GemmProblem<T>&);
#define KT_ETI_GEMM_PAIR_ONE(E, KW)                                                                  \
  KT_ETI_GEMM_PAIR_ONE_TYPE(E, float, KW) KT_ETI_GEMM_PAIR_ONE_TYPE(E, double, KW)                   \
  KT_ETI_GEMM_PAIR_ONE_TYPE(E, kt::half, KW) KT_ETI_GEMM_PAIR_ONE_TYPE(E, kt::bfloat16, KW)
#define KT_ETI_GEMM_PAIR(KW) KT_ETI_EACH_DEVICE(KT_ETI_GEMM_PAIR_ONE, KW)
#if defined(KT_COMPILED) && !defined(KT_COMPILED_DEFINES_GEMM)
KT_ETI_GEMM_PAIR(extern template)
#endif
