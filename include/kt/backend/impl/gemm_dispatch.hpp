#pragma once
// kt's GEMM dispatch for a valid problem (kt::gemm checks a user's problem first, kt::matmul
// builds valid ones): empty problems and k == 0 (C = beta C) are handled here, once, for
// every back-end; otherwise the choice is forced, deterministic, tuned or heuristic — in that
// order — and run. Tuned is benchmark mode's (kt::tuning::set_benchmark): the first call for a
// key times every candidate on a scratch copy of C and caches the fastest; later calls with the
// key reuse it.

#include "kt/core/impl/internal.hpp"

#include "kt/backend/gemm_problem.hpp"
#include "kt/backend/impl/gemm_blas.hpp"
#include "kt/backend/impl/gemm_eigen.hpp"
#include "kt/backend/impl/gemm_kokkos.hpp"
#include "kt/backend/impl/gemm_select.hpp"
#include "kt/backend/impl/gemm_widen.hpp"
#include "kt/backend/impl/tuning_state.hpp"
#include "kt/core/impl/compiled.hpp"
#include "kt/core/impl/host_work.hpp"
#include "kt/core/impl/parallel_for.hpp"
#include "kt/core/impl/scratch.hpp"
#include "kt/core/impl/stream_events.hpp"
#include "kt/core/impl/work_instance.hpp"
#include "kt/core/device.hpp"
#include "kt/core/dtype.hpp"
#include "kt/core/error.hpp"
#include "kt/core/profiling.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include "kt/backend/cuda/impl/cublas_gemm_impl.hpp"
#endif

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <type_traits>

namespace kt::impl {

/// Runs p (k > 0) with `choice`; kt::Error when the back-end cannot run this dtype on Exec.
template <class Exec, class T, class C>
void run_gemm_choice(const Exec& exec, const GemmProblem<T, C>& p, const GemmChoice& choice) {
  switch (choice.backend) {
    case GemmBackend::Blas:
    case GemmBackend::Eigen:
      if constexpr (host_library_runs_v<Exec, T>) {
        exec.fence();  // the libraries run on the calling thread: earlier kernels must be done
        const auto library_gemm = [&](const auto& q) {
          if (choice.backend == GemmBackend::Blas) gemm_blas(q, choice.threads);
          else gemm_eigen(q, choice.threads);
        };
        if constexpr (host_library_ok_v<Exec, T>) library_gemm(p);
        else gemm_widened(exec, p, library_gemm);
        return;
      }
      break;
    case GemmBackend::Kokkos:
#if defined(KOKKOS_ENABLE_SERIAL)
      // One thread of a host device = the Serial device on the same memory: no fork-join.
      if constexpr (is_host_accessible_v<Exec> && !std::is_same_v<Exec, Kokkos::Serial>) {
        if (choice.threads == 1) {
          exec.fence();
          gemm_kokkos(Kokkos::Serial(), p);
          return;
        }
      }
#endif
      gemm_kokkos(work_instance(exec), p);
      return;
    case GemmBackend::Cublas:
#if defined(KOKKOS_ENABLE_CUDA)
      if constexpr (std::is_same_v<Exec, Kokkos::Cuda> && cuda::impl::cuda_type<T>::supported) {
        cuda::impl::check_int_range(p);
        cuda::impl::cublas_gemm(work_instance(exec).cuda_stream(), p);
        return;
      }
#endif
      break;
    case GemmBackend::Auto:
      break;
  }
  KT_THROW("kt::gemm: the ", to_string(choice.backend), " back-end cannot run a ", gemm_dtype_name<T, C>(),
           " GEMM on ", Exec::name());
}

/// Best seconds per call of one candidate: one warm-up, then timed runs filling ~20 ms (at
/// least 1, at most 50): tiny products need many runs for the minimum to be stable on a busy
/// machine, and tuning a 2048^3 product should not take seconds.
template <class Exec, class T, class C>
double time_gemm(const Exec& exec, const GemmProblem<T, C>& p, const GemmChoice& choice,
                 std::uint64_t& runs) {
  using clock = std::chrono::steady_clock;
  auto timed_run = [&] {
    const auto start = clock::now();
    run_gemm_choice(exec, p, choice);
    exec.fence();
    ++runs;
    return std::chrono::duration<double>(clock::now() - start).count();
  };
  double best = timed_run();  // warm-up: first-touch, thread start-up, library init
  const int reps = std::clamp(static_cast<int>(0.02 / std::max(best, 1e-9)), 1, 50);
  best = 1e300;
  for (int r = 0; r < reps; ++r) best = std::min(best, timed_run());
  return best;
}

template <class Exec, class T, class C>
GemmChoice tuned_gemm_choice(const Exec& exec, const GemmProblem<T, C>& p, int concurrency) {
  auto& state = TuningState::instance();
  const TuningKey key{p.m, p.n, p.k, p.batch, p.trans_a == Transpose::Yes, p.trans_b == Transpose::Yes,
                      gemm_dtype_name<T, C>(), Exec::name(), concurrency};
  {
    std::lock_guard<std::mutex> lock(state.mutex);
    const auto it = state.cache.find(key);
    if (it != state.cache.end()) {
      ++state.stats.reused;
      return it->second;
    }
  }
  // Candidates write into a scratch copy of C, so tuning never changes the caller's C.
  using MemSpace = typename Exec::memory_space;
  const std::int64_t c_elements = (p.batch - 1) * p.stride_c + (p.m - 1) * p.ldc + p.n;
  const Scratch<MemSpace> scratch(static_cast<std::size_t>(c_elements) * sizeof(C), "kt::tuning scratch",
                                  stream_id(exec));
  using View = Kokkos::View<C*, MemSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  Kokkos::deep_copy(work_instance(exec), View(scratch.template as<C>(), c_elements), View(p.c, c_elements));
  GemmProblem<T, C> trial = p;
  trial.c = scratch.template as<C>();
  GemmChoice best;
  best.seconds = 1e300;
  std::uint64_t runs = 0;
  for (auto candidate : gemm_candidates<Exec, T>(concurrency)) {
    candidate.seconds = time_gemm(exec, trial, candidate, runs);
    if (candidate.seconds < best.seconds) best = candidate;
  }
  exec.fence();
  std::lock_guard<std::mutex> lock(state.mutex);
  state.cache.emplace(key, best);
  ++state.stats.tuned;
  state.stats.candidate_runs += runs;
  return best;
}

/// C = beta * C (the whole product when k == 0); beta == 0 never reads C.
template <class Exec, class T, class C>
void scale_c(const Exec& exec, const GemmProblem<T, C>& p) {
  using Acc = gemm_acc_t<T>;
  C* c = p.c;
  const std::int64_t ldc = p.ldc, stride = p.stride_c, m = p.m, n = p.n;
  const Acc beta = static_cast<Acc>(p.beta);
  parallel_for(exec, "kt::gemm::scale_c", p.batch * m * n, KOKKOS_LAMBDA(std::int64_t e) {
    const std::int64_t b = e / (m * n), i = e / n % m, j = e % n;
    C& x = c[b * stride + i * ldc + j];
    x = beta == Acc(0) ? C(0) : C(beta * static_cast<Acc>(static_cast<compute_t<C>>(x)));
  });
}

/// The (back-end, threads) choice for this call.
template <class Exec, class T, class C>
GemmChoice choose_gemm(const Exec& exec, const GemmProblem<T, C>& p, const GemmOptions& options) {
  const int concurrency = static_cast<int>(exec.concurrency());
  if (options.backend() != GemmBackend::Auto) {
    const auto choice = gemm_heuristic<Exec>(p, concurrency);
    return {options.backend(), options.threads() > 0 ? options.threads() : choice.threads, 0};
  }
  if (TuningState::instance().deterministic) return {GemmBackend::Kokkos, concurrency, 0};
  if (TuningState::instance().benchmark) {
    const UnrecordedHostWork trials;  // in a recorded step, the trial runs are not the step's
    return tuned_gemm_choice(exec, p, concurrency);
  }
  auto choice = gemm_heuristic<Exec>(p, concurrency);
  if (options.threads() > 0) choice.threads = options.threads();
  return choice;
}

/// Runs a valid problem with k > 0 on `exec` with `choice` (from choose_gemm), counted in the
/// tuning statistics and recorded in a host step.
template <class Exec, class T, class C>
void gemm_dispatch_chosen(const Exec& exec, const GemmProblem<T, C>& p, const GemmChoice& choice) {
  const auto run = [exec, p, choice] {
    TuningState::instance().calls[static_cast<int>(choice.backend)].fetch_add(1, std::memory_order_relaxed);
    run_gemm_choice(exec, p, choice);
  };
  // A recorded host step replays the product with the back-end chosen at the recording.
  if constexpr (is_host_accessible_v<Exec>)
    if (HostWork* recording = host_recording<Exec>()) return record_host_work(recording, run);
  run();
}

/// Runs a valid problem on `exec`.
template <class Exec, class T, class C>
void gemm_dispatch(const Exec& exec, const GemmProblem<T, C>& p, const GemmOptions& options) {
  if (p.empty()) return;
  if (p.k == 0) return scale_c(exec, p);
  gemm_dispatch_chosen(exec, p, choose_gemm(exec, p, options));
}

/// Whether `choice` runs p on kt's small path on the calling thread (gemm_host_small), as
/// run_gemm_choice does: the Kokkos back-end on one thread (its Serial stand-in for a thread
/// pool) or on a device of one thread, for a product gemm_host_small_fits.
template <class Exec, class T, class C>
bool runs_small_path(const Exec& exec, const GemmProblem<T, C>& p, const GemmChoice& choice) {
  if constexpr (GemmTiles<Exec, gemm_acc_t<T>>::team_size == 1) {
    if (choice.backend != GemmBackend::Kokkos || !gemm_host_small_fits(p)) return false;
#if defined(KOKKOS_ENABLE_SERIAL)
    if (choice.threads == 1) return true;
#endif
    return exec.concurrency() == 1;
  } else {
    return false;
  }
}

/// Whether gemm_dispatch, without options, runs p on kt's small path on the calling thread.
/// Compiled once per device and dtype pair in kt_compiled (the choice instantiates every
/// back-end), not in each caller.
template <class Exec, class T, class C>
bool gemm_dispatch_runs_small(const Exec& exec, const GemmProblem<T, C>& p) {
  return !p.empty() && p.k > 0 && runs_small_path(exec, p, choose_gemm(exec, p, GemmOptions()));
}

/// Runs p with every element of C through `epi` as kt's small path stores it
/// (gemm_host_small), when the dispatch would run p there (gemm_dispatch_runs_small) and p has
/// alpha 1 and beta 0. Returns false, having run nothing, otherwise; the caller then runs p
/// through gemm_dispatch and its epilogue as a pass of its own. Counted in the tuning
/// statistics, and recorded in a host step, as gemm_dispatch's products are.
template <class Exec, class T, class Epi>
bool gemm_dispatch_small_fused(const Exec& exec, const GemmProblem<T, T>& p, const Epi& epi) {
  if (p.alpha != 1 || p.beta != 0 || !gemm_dispatch_runs_small(exec, p)) return false;
  if constexpr (GemmTiles<Exec, gemm_acc_t<T>>::team_size == 1 && std::is_floating_point_v<T>) {
    const auto run = [exec, p, epi] {
      KT_PROFILE_REGION("kt::gemm_kokkos");
      TuningState::instance().calls[static_cast<int>(GemmBackend::Kokkos)].fetch_add(1, std::memory_order_relaxed);
      exec.fence();  // the calling thread runs it: earlier work on exec must be done
      gemm_host_small(p, epi);
    };
    if (HostWork* recording = host_recording<Exec>()) record_host_work(recording, run);
    else run();
  }
  return true;
}

}  // namespace kt::impl

// kt_compiled (kt/core/impl/compiled.hpp): the dispatch for each (operand, output) dtype pair
// kt's tensors use, on every device.
#define KT_ETI_GEMM_ONE_PAIR(E, T, C, KW)                                                                    \
  KW void kt::impl::gemm_dispatch<E, T, C>(const E&, const kt::GemmProblem<T, C>&, const kt::GemmOptions&); \
  KW bool kt::impl::gemm_dispatch_runs_small<E, T, C>(const E&, const kt::GemmProblem<T, C>&);
#define KT_ETI_GEMM_ONE(E, KW)                                                                          \
  KT_ETI_GEMM_ONE_PAIR(E, float, float, KW) KT_ETI_GEMM_ONE_PAIR(E, double, double, KW)                 \
  KT_ETI_GEMM_ONE_PAIR(E, kt::half, kt::half, KW) KT_ETI_GEMM_ONE_PAIR(E, kt::half, float, KW)          \
  KT_ETI_GEMM_ONE_PAIR(E, kt::bfloat16, kt::bfloat16, KW) KT_ETI_GEMM_ONE_PAIR(E, kt::bfloat16, float, KW)
#define KT_ETI_GEMM(KW) KT_ETI_EACH_DEVICE(KT_ETI_GEMM_ONE, KW)
#if defined(KT_COMPILED) && !defined(KT_COMPILED_DEFINES_GEMM)
KT_ETI_GEMM(extern template)
#endif
