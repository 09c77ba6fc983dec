#pragma once
/// \file kt/backend/tuning.hpp
/// How kt chooses a GEMM implementation: `torch.backends.cudnn.benchmark` and
/// `torch.backends.cudnn.deterministic` for kt's matrix products.
///
///     kt::tuning::set_benchmark(true);      // time the candidates on the first call per shape
///     auto y = kt::matmul(x, w);            // first call of this shape: tunes, then runs the winner
///     auto z = kt::matmul(x, w);            // later calls: straight to the winner
///     kt::tuning::set_deterministic(true);  // results independent of threads and timing
///
/// Without benchmark mode a size-based heuristic picks the back-end and the thread count.

#include "kt/core/impl/public_begin.hpp"

#include "kt/backend/impl/blas_core.hpp"
#include "kt/backend/impl/tuning_state.hpp"
#include "kt/core/impl/compiled.hpp"

#include <mutex>
#include <string>
#include <vector>

namespace kt::tuning {

/// Turns benchmark mode on or off (off by default).
inline void set_benchmark(bool on) { kt::impl::TuningState::instance().benchmark = on; }
inline bool benchmark() { return kt::impl::TuningState::instance().benchmark; }

/// Deterministic mode: only algorithms whose results do not depend on thread count or timing
/// (kt's portable Kokkos GEMM, which never splits a sum across threads). It overrides
/// benchmark mode, whose choice itself depends on timing.
inline void set_deterministic(bool on) { kt::impl::TuningState::instance().deterministic = on; }
inline bool deterministic() { return kt::impl::TuningState::instance().deterministic; }

/// What tuning has done, which back-ends ran the products, and what kt knows of the BLAS.
KT_INLINE_UNLESS_COMPILED Stats stats();

/// Every cached decision.
KT_INLINE_UNLESS_COMPILED std::vector<Entry> entries();

/// Forgets every decision and zeroes the counts (the next calls tune again).
KT_INLINE_UNLESS_COMPILED void clear();

// Defined once in kt_compiled when it is linked (kt/core/impl/compiled.hpp).
#if !defined(KT_COMPILED) || defined(KT_COMPILED_DEFINES_GEMM)

KT_INLINE_UNLESS_COMPILED Stats stats() {
  auto& state = kt::impl::TuningState::instance();
  std::lock_guard<std::mutex> lock(state.mutex);
  Stats s = state.stats;
  const auto calls = [&](GemmBackend b) { return state.calls[static_cast<int>(b)].load(); };
  s.blas_calls = calls(GemmBackend::Blas);
  s.eigen_calls = calls(GemmBackend::Eigen);
  s.kokkos_calls = calls(GemmBackend::Kokkos);
  s.cublas_calls = calls(GemmBackend::Cublas);
  s.blas_core = kt::impl::blas_core().name;
  s.blas_bypassed = kt::impl::blas_core().bypassed;
  return s;
}

KT_INLINE_UNLESS_COMPILED std::vector<Entry> entries() {
  auto& state = kt::impl::TuningState::instance();
  std::lock_guard<std::mutex> lock(state.mutex);
  std::vector<Entry> out;
  for (const auto& [key, choice] : state.cache)
    out.push_back(Entry{key.str(), to_string(choice.backend), choice.threads, choice.seconds});
  return out;
}

KT_INLINE_UNLESS_COMPILED void clear() {
  auto& state = kt::impl::TuningState::instance();
  std::lock_guard<std::mutex> lock(state.mutex);
  state.cache.clear();
  state.stats = Stats{};
  for (auto& c : state.calls) c = 0;
}

#endif

}  // namespace kt::tuning

#include "kt/core/impl/public_end.hpp"
