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

#include "kt/backend/gemm_problem.hpp"
#include "kt/backend/impl/gemm_kokkos.hpp"
#include "kt/backend/impl/gemm_select.hpp"
#include "kt/backend/impl/gemm_tune.hpp"
#include "kt/backend/tuning.hpp"
#include "kt/core/profiling.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include "kt/backend/cuda/cublas_gemm.hpp"
#endif

#include <Kokkos_Core.hpp>

namespace kt {

/// Forces a back-end and/or a thread count for one call (Auto / 0: let kt choose).
class GemmOptions {
public:
  GemmOptions& backend(GemmBackend b) { backend_ = b; return *this; }
  GemmOptions& threads(int n) { threads_ = n; return *this; }
  GemmBackend backend() const { return backend_; }
  int threads() const { return threads_; }

private:
  GemmBackend backend_ = GemmBackend::Auto;
  int threads_ = 0;
};

namespace impl {

/// Runs the problem with one (back-end, threads) choice; throws when the back-end cannot run
/// this dtype on this device.
template <class Exec, class T>
void run_gemm(const Exec& exec, const GemmProblem<T>& p, const tuning::impl::Choice& choice) {
  switch (choice.backend) {
    case GemmBackend::Blas:
    case GemmBackend::Eigen:
      if constexpr (host_library_ok_v<Exec, T>) {
        exec.fence();  // the libraries run on the calling thread: earlier kernels must be done
        if (choice.backend == GemmBackend::Blas) gemm_blas(p, choice.threads);
        else gemm_eigen(p, choice.threads);
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
      gemm_kokkos(exec, p);
      return;
    case GemmBackend::Cublas:
#if defined(KOKKOS_ENABLE_CUDA)
      if constexpr (std::is_same_v<Exec, Kokkos::Cuda>) {
        cuda::gemm(exec.cuda_stream(), p);
        return;
      }
#endif
      break;
    case GemmBackend::Auto:
      break;
  }
  KT_THROW("kt::gemm: the ", to_string(choice.backend), " back-end cannot run a ", dtype_name<T>(),
           " GEMM on ", Exec::name());
}

/// C = beta * C (the whole product when k == 0).
template <class Exec, class T>
void scale_c(const Exec& exec, const GemmProblem<T>& p) {
  T* c = p.c;
  const std::int64_t ldc = p.ldc, stride = p.stride_c;
  const compute_t<T> beta = p.beta;
  using Policy = Kokkos::MDRangePolicy<Exec, Kokkos::Rank<3>, Kokkos::IndexType<std::int64_t>>;
  Kokkos::parallel_for("kt::gemm::scale_c", Policy(exec, {0, 0, 0}, {p.batch, p.m, p.n}),
                       KOKKOS_LAMBDA(std::int64_t b, std::int64_t i, std::int64_t j) {
                         T& x = c[b * stride + i * ldc + j];
                         x = beta == compute_t<T>(0) ? T(0) : T(beta * static_cast<compute_t<T>>(x));
                       });
}

/// The choice for this call: forced, deterministic, tuned or heuristic — in that order.
template <class Exec, class T>
tuning::impl::Choice choose_gemm(const Exec& exec, const GemmProblem<T>& p, const GemmOptions& options) {
  const int concurrency = static_cast<int>(exec.concurrency());
  if (options.backend() != GemmBackend::Auto) {
    auto choice = gemm_heuristic<Exec>(p, concurrency);
    return {options.backend(), options.threads() > 0 ? options.threads() : choice.threads, 0};
  }
  if (tuning::deterministic()) return {GemmBackend::Kokkos, concurrency, 0};
  if (tuning::benchmark()) return tuned_gemm_choice(exec, p, concurrency);
  auto choice = gemm_heuristic<Exec>(p, concurrency);
  if (options.threads() > 0) choice.threads = options.threads();
  return choice;
}

}  // namespace impl

/// C = alpha * op(A) * op(B) + beta * C on execution-space instance `exec` (pointers in its
/// memory space). Host libraries run synchronously; device kernels are ordered on `exec`.
template <class Exec, class T>
void gemm(const Exec& exec, const GemmProblem<T>& p, const GemmOptions& options = {}) {
  KT_PROFILE_REGION("kt::gemm");
  impl::validate(p, "kt::gemm");
  if (p.m == 0 || p.n == 0 || p.batch == 0) return;
  if (p.k == 0) return impl::scale_c(exec, p);
  impl::run_gemm(exec, p, impl::choose_gemm(exec, p, options));
}

}  // namespace kt
