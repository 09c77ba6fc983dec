#pragma once
// kt's GEMM dispatch for a valid problem (kt::gemm checks a user's problem first, kt::matmul
// builds valid ones): empty problems and k == 0 (C = beta C) are handled here, once, for
// every back-end; otherwise the choice is forced, deterministic, tuned or heuristic — in that
// order — and run.

#include "kt/core/impl/internal.hpp"

#include "kt/backend/gemm_problem.hpp"
#include "kt/backend/impl/gemm_run.hpp"
#include "kt/backend/impl/gemm_select.hpp"
#include "kt/backend/impl/gemm_tune.hpp"
#include "kt/backend/impl/tuning_state.hpp"
#include "kt/core/impl/compiled.hpp"
#include "kt/core/impl/parallel_for.hpp"

#include <Kokkos_Core.hpp>

namespace kt::impl {

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
  if (TuningState::instance().benchmark) return tuned_gemm_choice(exec, p, concurrency);
  auto choice = gemm_heuristic<Exec>(p, concurrency);
  if (options.threads() > 0) choice.threads = options.threads();
  return choice;
}

/// Runs a valid problem on `exec`.
template <class Exec, class T, class C>
void gemm_dispatch(const Exec& exec, const GemmProblem<T, C>& p, const GemmOptions& options) {
  if (p.empty()) return;
  if (p.k == 0) return scale_c(exec, p);
  const GemmChoice choice = choose_gemm(exec, p, options);
  TuningState::instance().calls[static_cast<int>(choice.backend)].fetch_add(1, std::memory_order_relaxed);
  run_gemm_choice(exec, p, choice);
}

}  // namespace kt::impl

// kt_compiled (kt/core/impl/compiled.hpp): the dispatch for each (operand, output) dtype pair
// kt's tensors use, on every device.
#define KT_ETI_GEMM_ONE_PAIR(E, T, C, KW) \
  KW void kt::impl::gemm_dispatch<E, T, C>(const E&, const kt::GemmProblem<T, C>&, const kt::GemmOptions&);
#define KT_ETI_GEMM_ONE(E, KW)                                                                          \
  KT_ETI_GEMM_ONE_PAIR(E, float, float, KW) KT_ETI_GEMM_ONE_PAIR(E, double, double, KW)                 \
  KT_ETI_GEMM_ONE_PAIR(E, kt::half, kt::half, KW) KT_ETI_GEMM_ONE_PAIR(E, kt::half, float, KW)          \
  KT_ETI_GEMM_ONE_PAIR(E, kt::bfloat16, kt::bfloat16, KW) KT_ETI_GEMM_ONE_PAIR(E, kt::bfloat16, float, KW)
#define KT_ETI_GEMM(KW) KT_ETI_EACH_DEVICE(KT_ETI_GEMM_ONE, KW)
#if defined(KT_COMPILED) && !defined(KT_COMPILED_DEFINES_GEMM)
KT_ETI_GEMM(extern template)
#endif
