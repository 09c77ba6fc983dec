#pragma once
/// \file kt/backend/cuda/cublas_gemm.hpp
/// Row-major (batched) GEMM on cuBLAS over raw device pointers and a cudaStream_t:
/// C[b] = alpha op(A[b]) op(B[b]) + beta C[b]. float/double use cublas{S,D}gemm; kt::half and
/// kt::bfloat16 use cublasGemmEx with fp32 accumulation (alpha, beta as float); batch > 1 the
/// strided-batched variants. Asynchronous on `stream`. Kokkos-free: compiles with plain nvcc.
///
///     kt::GemmProblem<kt::half> p;           // from kt/backend/gemm_problem.hpp
///     p.m = 256; p.n = 512; p.k = 784; p.a = x; p.lda = 784; p.b = w; p.ldb = 784;
///     p.trans_b = kt::Transpose::Yes; p.c = y; p.ldc = 512;
///     kt::cuda::gemm(stream, p);             // y = x wᵀ on the current device
///
///     kt::cuda::GemmArgs g;                  // the same without kt's (Kokkos) headers
///     g.type = CUDA_R_16BF; g.m = 256; ...; kt::cuda::gemm(stream, g);
///
/// Sizes 0 (m, n or batch; or k with beta == 1) return at once; k == 0 with beta == 0 zeroes C
/// with cudaMemset2DAsync: neither calls cuBLAS. Handles, determinism: cublas_handle.hpp.

#include "kt/backend/cuda/cublas_handle.hpp"
#include "kt/backend/cuda/gemm_args.hpp"
#include "kt/backend/cuda/impl/cublas_gemm_impl.hpp"

namespace kt {
// Declared here, defined in kt/core and kt/backend/gemm_problem.hpp: those headers pull in
// Kokkos, which this one must not. The gemm() overload below is a template, so they need to
// be complete only where it is instantiated.
class half;
class bfloat16;
template <class T>
struct GemmProblem;
}  // namespace kt

namespace kt::cuda {

/// Runs g on `stream` (current device). Throws kt::Error on invalid arguments (before any
/// CUDA call) and on CUDA/cuBLAS failures, naming the call and the problem.
inline void gemm(cudaStream_t stream, const GemmArgs& g) {
  impl::validate(g);
  if (g.m == 0 || g.n == 0 || g.batch == 0 || (g.k == 0 && g.beta == 1)) return;
  if (g.k == 0 && g.beta == 0) return impl::zero_c(stream, g);
  cublasHandle_t h = cublas_handle(stream);
  KT_CUBLAS_CHECK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));  // alpha, beta on host
  impl::run_cublas_gemm(h, g);
}

namespace impl {
/// The cudaDataType_t of a kt dtype (half and bfloat16 may be incomplete here: only named).
template <class T>
struct cuda_type {
  static constexpr bool supported = false;
};
template <cudaDataType_t V>
struct cuda_type_is {
  static constexpr cudaDataType_t value = V;
  static constexpr bool supported = true;
};
template <> struct cuda_type<float> : cuda_type_is<CUDA_R_32F> {};
template <> struct cuda_type<double> : cuda_type_is<CUDA_R_64F> {};
template <> struct cuda_type<kt::half> : cuda_type_is<CUDA_R_16F> {};
template <> struct cuda_type<kt::bfloat16> : cuda_type_is<CUDA_R_16BF> {};
}  // namespace impl

/// Runs the kt::GemmProblem p (row-major, pointers in device memory of the current device)
/// on `stream`. T: float, double, kt::half, kt::bfloat16. Include kt/backend/gemm_problem.hpp.
template <class T>
void gemm(cudaStream_t stream, const kt::GemmProblem<T>& p) {
  static_assert(impl::cuda_type<T>::supported,
                "kt::cuda::gemm: cuBLAS GEMM takes float, double, kt::half or kt::bfloat16");
  static_assert(static_cast<bool>(decltype(p.trans_a)::Yes), "kt::Transpose::Yes must be true");
  GemmArgs g;
  g.type = impl::cuda_type<T>::value;
  g.trans_a = static_cast<bool>(p.trans_a);
  g.trans_b = static_cast<bool>(p.trans_b);
  g.m = p.m, g.n = p.n, g.k = p.k, g.batch = p.batch;
  g.a = p.a, g.lda = p.lda, g.stride_a = p.stride_a;
  g.b = p.b, g.ldb = p.ldb, g.stride_b = p.stride_b;
  g.c = p.c, g.ldc = p.ldc, g.stride_c = p.stride_c;
  g.alpha = static_cast<double>(p.alpha), g.beta = static_cast<double>(p.beta);
  gemm(stream, g);
}

}  // namespace kt::cuda
