#pragma once
/// \file kt/backend/tuning_stats.hpp
/// What kt's GEMM tuning has done (kt::tuning::stats(), kt::tuning::entries(); see
/// kt/backend/tuning.hpp).

#include <cstdint>
#include <string>

namespace kt::tuning {

/// What tuning has done so far in this process.
struct Stats {
  std::uint64_t tuned = 0;           ///< problems tuned (one per distinct key)
  std::uint64_t candidate_runs = 0;  ///< timed candidate executions while tuning
  std::uint64_t reused = 0;          ///< calls served by a cached winner
  /// Products run by each back-end (every call, tuned or not; k = 0 and empty ones excluded).
  std::uint64_t blas_calls = 0, eigen_calls = 0, kokkos_calls = 0, cublas_calls = 0;
  /// The linked BLAS's kernel family as OpenBLAS names it ("Haswell", "SkylakeX", "Prescott";
  /// empty without OpenBLAS), and whether kt passes over it for its own kernel, whose vector
  /// units are wider on this CPU (kt/backend/impl/blas_core.hpp).
  std::string blas_core;
  bool blas_bypassed = false;
};

/// One cached decision, for inspection (`kt::tuning::entries()`).
struct Entry {
  std::string key;      ///< "float32 OpenMP(2) NT m=256 n=512 k=784 batch=1"
  std::string backend;  ///< "blas", "eigen", "kokkos", "cublas"
  int threads = 0;
  double seconds = 0;   ///< the winner's best time per call while tuning
};

}  // namespace kt::tuning
