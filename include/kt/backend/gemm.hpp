#pragma once
/// \file kt/backend/gemm.hpp
/// kt's GEMM dispatch over raw pointers: C = alpha * op(A) * op(B) + beta * C, batched,
/// row-major, on any device. It picks a back-end — OpenBLAS or Eigen on the host, cuBLAS on
/// Cuda, kt's portable Kokkos kernel anywhere — and a thread count, by heuristic, by timing
/// (kt::tuning::set_benchmark) or as asked. Tensor users call kt::matmul / kt::addmm_.
///
///     kt::GemmProblem<float> p = ...;                     // see kt/backend/gemm_problem.hpp
///     kt::gemm(kt::OpenMP(), p);                          // kt chooses
///     kt::gemm(kt::OpenMP(), p, kt::GemmOptions().backend(kt::GemmBackend::Eigen).threads(1));

#include "kt/core/impl/public_begin.hpp"

#include "kt/backend/gemm_problem.hpp"
#include "kt/backend/impl/gemm_dispatch.hpp"
#include "kt/backend/impl/gemm_pair.hpp"  // compiled with the dispatch in kt_compiled
#include "kt/core/profiling.hpp"

namespace kt {

/// C = alpha * op(A) * op(B) + beta * C on execution-space instance `exec` (pointers in its
/// memory space). Host libraries run synchronously; device kernels are ordered on `exec`.
/// kt::Error for an invalid problem (negative sizes, leading dimensions, overlapping batch
/// entries, null pointers) or a back-end that cannot run it.
template <class Exec, class T, class C>
void gemm(const Exec& exec, const GemmProblem<T, C>& p, const GemmOptions& options = {}) {
  KT_PROFILE_REGION("kt::gemm");
  impl::validate_gemm(p, "kt::gemm");
  impl::gemm_dispatch(exec, p, options);
}

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
