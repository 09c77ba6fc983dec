#pragma once
// Runs a valid, non-empty GEMM problem with one (back-end, threads) choice: what the
// dispatcher (kt/backend/impl/gemm_dispatch.hpp) and benchmark mode's timing both call.

#include "kt/core/impl/internal.hpp"

#include "kt/backend/gemm_problem.hpp"
#include "kt/backend/impl/gemm_blas.hpp"
#include "kt/backend/impl/gemm_eigen.hpp"
#include "kt/backend/impl/gemm_kokkos.hpp"
#include "kt/backend/impl/gemm_select.hpp"
#include "kt/backend/impl/gemm_widen.hpp"
#include "kt/backend/impl/tuning_state.hpp"
#include "kt/core/impl/work_instance.hpp"
#include "kt/core/device.hpp"
#include "kt/core/dtype.hpp"
#include "kt/core/error.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include "kt/backend/cuda/impl/cublas_gemm_impl.hpp"
#endif

#include <Kokkos_Core.hpp>

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

}  // namespace kt::impl
