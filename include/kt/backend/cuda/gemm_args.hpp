#pragma once
/// \file kt/backend/cuda/gemm_args.hpp
/// kt::cuda::GemmArgs: a row-major (batched) GEMM over device pointers, type-erased the way
/// cublasGemmEx is — the Kokkos-free twin of kt::GemmProblem<T> that kt::cuda::gemm runs.
/// C[b] = alpha op(A[b]) op(B[b]) + beta C[b] for b in [0, batch).
///
///     kt::cuda::GemmArgs g;                  // y (256 x 512) = x (256 x 784) wᵀ, bf16 in/out
///     g.type = CUDA_R_16BF;
///     g.m = 256; g.n = 512; g.k = 784;
///     g.a = x; g.lda = 784;
///     g.b = w; g.ldb = 784; g.trans_b = true;   // w: (512, 784), used as wᵀ
///     g.c = y; g.ldc = 512;
///     kt::cuda::gemm(stream, g);             // kt/backend/cuda/cublas_gemm.hpp

#include <library_types.h>  // cudaDataType_t

#include <cstdint>

namespace kt::cuda {

/// Fields mean what kt::GemmProblem's do; leading dimensions and strides count elements.
struct GemmArgs {
  cudaDataType_t type = CUDA_R_32F;  ///< of A, B and C: CUDA_R_32F, _64F, _16F or _16BF
  bool trans_a = false, trans_b = false;  ///< op(X) = Xᵀ when true
  std::int64_t m = 0, n = 0, k = 0;       ///< op(A) is m x k, op(B) is k x n, C is m x n
  std::int64_t batch = 1;
  const void* a = nullptr;
  std::int64_t lda = 0, stride_a = 0;  ///< lda: elements between rows; stride 0: one shared A
  const void* b = nullptr;
  std::int64_t ldb = 0, stride_b = 0;
  void* c = nullptr;
  std::int64_t ldc = 0, stride_c = 0;
  /// Rounded to float unless type is CUDA_R_64F. beta == 0: C is not read (NaN is ignored).
  double alpha = 1, beta = 0;
};

}  // namespace kt::cuda
