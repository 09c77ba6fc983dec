#pragma once
// kt::cuda::gemm's implementation: the dtype mapping, cuBLAS' int-size limits, and one
// row-major -> column-major cublasGemmEx call for every dtype.

#include "kt/core/impl/internal.hpp"

#include "kt/backend/cuda/cublas_handle.hpp"
#include "kt/backend/cuda/cuda_error.hpp"
#include "kt/backend/gemm_problem.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>

namespace kt {
// The 16-bit types need only be named here (kt/core pulls in Kokkos, this header must not).
class half;
class bfloat16;
}  // namespace kt

namespace kt::cuda::impl {

/// The cudaDataType_t of a kt dtype, and the compute type its GEMM accumulates in.
template <class T>
struct cuda_type {
  static constexpr bool supported = false;
};
template <cudaDataType_t V, cublasComputeType_t Compute>
struct cuda_type_is {
  static constexpr cudaDataType_t value = V;
  static constexpr cublasComputeType_t compute = Compute;
  static constexpr bool supported = true;
};
template <> struct cuda_type<float> : cuda_type_is<CUDA_R_32F, CUBLAS_COMPUTE_32F> {};
template <> struct cuda_type<double> : cuda_type_is<CUDA_R_64F, CUBLAS_COMPUTE_64F> {};
template <> struct cuda_type<::kt::half> : cuda_type_is<CUDA_R_16F, CUBLAS_COMPUTE_32F> {};
template <> struct cuda_type<::kt::bfloat16> : cuda_type_is<CUDA_R_16BF, CUBLAS_COMPUTE_32F> {};

template <class T, class C>
std::string describe(const GemmProblem<T, C>& p) {
  return ::kt::impl::concat(" in kt::cuda::gemm(m=", p.m, ", n=", p.n, ", k=", p.k, ", batch=", p.batch,
                            ", type=", static_cast<int>(cuda_type<T>::value),
                            ", C type=", static_cast<int>(cuda_type<C>::value), ")");
}

/// cuBLAS takes int sizes and leading dimensions.
template <class T, class C>
void check_int_range(const GemmProblem<T, C>& p) {
  const std::int64_t big = INT_MAX;
  KT_REQUIRE(p.m <= big && p.n <= big && p.k <= big && p.batch <= big && p.lda <= big && p.ldb <= big &&
                 p.ldc <= big,
             "kt::cuda::gemm: sizes and leading dimensions must fit in int for cuBLAS", describe(p));
}

/// Calls cuBLAS for a valid, non-empty p (k == 0 included: cuBLAS then scales C by beta). A
/// 16-bit product with an fp32 C is GemmEx's Atype/Btype 16F or 16BF with Ctype 32F.
template <class T, class C>
void cublas_gemm(cudaStream_t stream, const GemmProblem<T, C>& p) {
  using Type = cuda_type<T>;
  constexpr cudaDataType_t c_type = cuda_type<C>::value;
  cublasHandle_t h = cublas_handle(stream);
  KT_CUBLAS_CHECK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));  // alpha, beta on host
  // cuBLAS is column-major, and a row-major X (ld) is the column-major Xᵀ (same ld). So
  // C = op(A) op(B) is computed as Cᵀ = op(B)ᵀ op(A)ᵀ: B first, A second, m and n swapped.
  const bool ta = p.trans_a == Transpose::Yes, tb = p.trans_b == Transpose::Yes;
  const cublasOperation_t op_a = ta ? CUBLAS_OP_T : CUBLAS_OP_N, op_b = tb ? CUBLAS_OP_T : CUBLAS_OP_N;
  const int m = static_cast<int>(p.n), n = static_cast<int>(p.m), k = static_cast<int>(p.k);
  // Rows of the column-major views; max() only matters for k == 0 (operands unread), where
  // cuBLAS still insists on ld >= max(1, rows).
  const int lda = static_cast<int>(std::max<std::int64_t>({p.lda, 1, ta ? p.m : p.k}));
  const int ldb = static_cast<int>(std::max<std::int64_t>({p.ldb, 1, tb ? p.k : p.n}));
  const int ldc = static_cast<int>(p.ldc), batch = static_cast<int>(p.batch);
  // alpha and beta in the compute type.
  const double alpha64 = p.alpha, beta64 = p.beta;
  const float alpha32 = static_cast<float>(p.alpha), beta32 = static_cast<float>(p.beta);
  const bool fp64 = Type::compute == CUBLAS_COMPUTE_64F;
  const void* alpha = fp64 ? static_cast<const void*>(&alpha64) : static_cast<const void*>(&alpha32);
  const void* beta = fp64 ? static_cast<const void*>(&beta64) : static_cast<const void*>(&beta32);
  cublasStatus_t s;
  const char* call;
  if (batch == 1) {
    call = "cublasGemmEx";
    s = cublasGemmEx(h, op_b, op_a, m, n, k, alpha, p.b, Type::value, ldb, p.a, Type::value, lda, beta, p.c,
                     c_type, ldc, Type::compute, CUBLAS_GEMM_DEFAULT);
  } else {
    call = "cublasGemmStridedBatchedEx";
    s = cublasGemmStridedBatchedEx(h, op_b, op_a, m, n, k, alpha, p.b, Type::value, ldb, p.stride_b, p.a,
                                   Type::value, lda, p.stride_a, beta, p.c, c_type, ldc, p.stride_c,
                                   batch, Type::compute, CUBLAS_GEMM_DEFAULT);
  }
  if (s != CUBLAS_STATUS_SUCCESS) throw_cublas(s, call, __FILE__, __LINE__, describe(p));
}

}  // namespace kt::cuda::impl
