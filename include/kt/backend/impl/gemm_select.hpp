#pragma once
// Choosing a GEMM back-end and thread count: the size-based heuristic, and the candidates that
// benchmark mode times on the first call per key (kt/backend/impl/gemm_dispatch.hpp).

#include "kt/core/impl/internal.hpp"

#include "kt/backend/gemm_problem.hpp"
#include "kt/backend/impl/blas_core.hpp"
#include "kt/backend/impl/gemm_blas.hpp"
#include "kt/backend/impl/gemm_eigen.hpp"
#include "kt/backend/impl/gemm_host_small.hpp"
#include "kt/backend/impl/gemm_transpose.hpp"
#include "kt/backend/impl/tuning_state.hpp"
#include "kt/core/device.hpp"
#include "kt/core/dtype.hpp"

#include <Kokkos_Core.hpp>

#include <type_traits>
#include <vector>

namespace kt::impl {

/// The dtype of a GEMM in tuning keys and errors: T's name, and C's when it differs (a string
/// literal, as kt::dtype_name's).
template <class T, class C>
constexpr const char* gemm_dtype_name() {
  if constexpr (std::is_same_v<T, C>) return dtype_name<T>();
  else if constexpr (std::is_same_v<T, half>) return "float16 (float32 C)";
  else return "bfloat16 (float32 C)";
}

/// True when the host libraries (BLAS, Eigen) can run this problem: host memory, float/double.
template <class Exec, class T>
inline constexpr bool host_library_ok_v =
    is_host_accessible_v<Exec> && (std::is_same_v<T, float> || std::is_same_v<T, double>);

/// True for 16-bit problems in host memory, which the host libraries run on fp32 copies of
/// the operands (kt/backend/impl/gemm_widen.hpp).
template <class Exec, class T>
inline constexpr bool host_library_widens_v =
    is_host_accessible_v<Exec> && (std::is_same_v<T, half> || std::is_same_v<T, bfloat16>);

/// True when BLAS and Eigen are candidates for the problem: directly or widened.
template <class Exec, class T>
inline constexpr bool host_library_runs_v = host_library_ok_v<Exec, T> || host_library_widens_v<Exec, T>;

/// Every (back-end, threads) pair that can run the problem on Exec.
template <class Exec, class T>
std::vector<GemmChoice> gemm_candidates(int concurrency) {
  std::vector<GemmChoice> out;
  std::vector<int> thread_counts{concurrency};
  if (concurrency > 1) thread_counts.insert(thread_counts.begin(), 1);
  if constexpr (is_cuda_v<Exec>) {
    if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16>)
      out.push_back({GemmBackend::Cublas, concurrency, 0});
    out.push_back({GemmBackend::Kokkos, concurrency, 0});
  } else {
    for (int threads : thread_counts) {
      if constexpr (host_library_runs_v<Exec, T>) {
        if (have_blas_gemm) out.push_back({GemmBackend::Blas, threads, 0});
        if (have_eigen_gemm) out.push_back({GemmBackend::Eigen, threads, 0});
      }
      out.push_back({GemmBackend::Kokkos, threads, 0});
    }
  }
  return out;
}

/// True for a small fp32 product that kt's small path serves in place of the BLAS, on one
/// thread:
///  - under 0.5 MFLOP where the BLAS is an OpenBLAS core without kernels for small products
///    and kt's kernel is as wide (BlasCore::small_on_kt): 5–50% faster at the MLP shapes
///    measured, 4% slower at one (64 x 64 x 32 with A transposed);
///  - with B transposed, at least 8 rows, at least one full panel of op(B) and under 1 MFLOP
///    (the Linear forward's x · Wᵀ of a small MLP) where kt packs op(B) in 16 x 16 AVX-512
///    transposes: 0.4–0.85x the time of OpenBLAS' AVX-512 small kernels. With fewer rows the
///    packing is most of the product and OpenBLAS' small kernel wins.
/// (docs/performance.md, "Transposed operands" and "Small products on 256-bit OpenBLAS cores".)
template <class T, class C>
bool gemm_small_on_kt(const GemmProblem<T, C>& p) {
  if (!std::is_same_v<T, float> || !gemm_host_small_fits(p)) return false;
  if (blas_core().small_on_kt) return p.flops() < 0.5e6;
  constexpr int NR = GemmTiles<Kokkos::DefaultHostExecutionSpace, gemm_acc_t<T>>::NR;
  return gemm_transpose_block == 16 && p.trans_b == Transpose::Yes && p.m >= 8 && p.n >= NR && p.flops() < 1e6;
}

/// The heuristic used without benchmark mode. Products under 0.5 MFLOP run on one thread
/// (below that a fork-join costs more than the second thread saves). Host float products go to
/// BLAS when kt has one — threaded by kt on its own pool, it wins at every MLP shape, skinny
/// ones (k = 10) included, where Eigen is far behind — unless that BLAS runs kernels narrower
/// than kt's on this CPU (kt/backend/impl/blas_core.hpp) or the product is a small one that
/// kt's small path runs faster (gemm_small_on_kt) — else to Eigen, else to kt's kernel.
/// Host 16-bit products go to kt's kernel, which widens the operands while packing them: the
/// libraries need fp32 copies first, a memory-bound pass kt's kernel does not make (ahead of
/// widened OpenBLAS on 2 threads, level on 1). Figures behind these choices:
/// docs/performance.md ("Matrix products", "Fixed cost of small ops", "Mixed precision").
template <class Exec, class T, class C>
GemmChoice gemm_heuristic(const GemmProblem<T, C>& p, int concurrency) {
  if constexpr (is_cuda_v<Exec>) {
    return {GemmBackend::Cublas, concurrency, 0};
  } else {
    const int threads = p.flops() < 0.5e6 ? 1 : concurrency;
    // kt's kernel on one thread reads small operands unpacked (gemm_host_small.hpp), which
    // moves its crossover up to ~1 MFLOP: 64^3 is faster on one thread, 128^3 on two
    // (docs/performance.md, "Host float products").
    const auto kokkos_threads = [&] { return gemm_host_small_fits(p) && p.flops() < 1e6 ? 1 : threads; };
    if constexpr (host_library_ok_v<Exec, T>) {
      if (have_blas_gemm) {
        if (!blas_core().bypassed && !gemm_small_on_kt(p)) return {GemmBackend::Blas, threads, 0};
        return {GemmBackend::Kokkos, kokkos_threads(), 0};  // kt's kernel, wider on this CPU
      }
      if (have_eigen_gemm) return {GemmBackend::Eigen, threads, 0};
    }
    return {GemmBackend::Kokkos, kokkos_threads(), 0};
  }
}

}  // namespace kt::impl
