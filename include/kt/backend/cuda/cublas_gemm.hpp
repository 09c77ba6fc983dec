#pragma once
/// \file kt/backend/cuda/cublas_gemm.hpp
/// Row-major (batched) GEMM on cuBLAS over raw device pointers and a cudaStream_t:
/// C[b] = alpha op(A[b]) op(B[b]) + beta C[b], for kt::GemmProblem<T> with T float, double
/// (fp64 compute), kt::half or kt::bfloat16 (fp32 accumulation: tensor cores; C 16-bit or, with
/// kt::GemmProblem<kt::half, float>, fp32). Asynchronous on
/// `stream`. Kokkos-free: compiles with plain nvcc or the host compiler; kt::half and
/// kt::bfloat16 need only be declared (the pointers are passed through).
///
///     kt::GemmProblem<kt::half> p;           // from kt/backend/gemm_problem.hpp
///     p.m = 256; p.n = 512; p.k = 784; p.a = x; p.lda = 784; p.b = w; p.ldb = 784;
///     p.trans_b = kt::Transpose::Yes; p.c = y; p.ldc = 512;
///     kt::cuda::gemm(stream, p);             // y = x wᵀ on the current device
///
/// Empty problems (m, n or batch 0) return without calling CUDA. Handles, determinism:
/// cublas_handle.hpp.

#include "kt/core/impl/public_begin.hpp"

#include "kt/backend/cuda/cublas_handle.hpp"
#include "kt/backend/cuda/impl/cublas_gemm_impl.hpp"
#include "kt/backend/gemm_problem.hpp"

namespace kt::cuda {

/// Runs p on `stream` (current device; pointers in its memory). Throws kt::Error on invalid
/// arguments (before any CUDA call) and on CUDA/cuBLAS failures, naming the call and the
/// problem.
template <class T, class C>
void gemm(cudaStream_t stream, const GemmProblem<T, C>& p) {
  static_assert(impl::cuda_type<T>::supported,
                "kt::cuda::gemm: cuBLAS GEMM takes float, double, kt::half or kt::bfloat16");
  ::kt::impl::validate_gemm(p, "kt::cuda::gemm");
  impl::check_int_range(p);
  if (p.empty()) return;
  impl::cublas_gemm(stream, p);
}

}  // namespace kt::cuda

#include "kt/core/impl/public_end.hpp"
