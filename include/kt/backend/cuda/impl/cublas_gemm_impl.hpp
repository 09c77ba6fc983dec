#pragma once
// kt::cuda::gemm's implementation: argument checks, the no-cuBLAS paths for empty problems,
// and the row-major -> column-major call of the cuBLAS GEMM for each type.

#include "kt/backend/cuda/cuda_error.hpp"
#include "kt/backend/cuda/gemm_args.hpp"

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <string>

namespace kt::cuda::impl {

inline std::size_t element_size(cudaDataType_t t) {
  switch (t) {
    case CUDA_R_32F: return 4;
    case CUDA_R_64F: return 8;
    case CUDA_R_16F:
    case CUDA_R_16BF: return 2;
    default: KT_THROW("kt::cuda::gemm: unsupported cudaDataType_t ", static_cast<int>(t),
                      " (CUDA_R_32F, CUDA_R_64F, CUDA_R_16F or CUDA_R_16BF)");
  }
}

inline std::string describe(const GemmArgs& g) {
  return ::kt::impl::concat(" in kt::cuda::gemm(m=", g.m, ", n=", g.n, ", k=", g.k,
                            ", batch=", g.batch, ", type=", static_cast<int>(g.type), ")");
}

/// Sizes, leading dimensions (of the row-major operands), pointers; cuBLAS takes int sizes.
inline void validate(const GemmArgs& g) {
  constexpr const char* op = "kt::cuda::gemm";
  (void)element_size(g.type);
  KT_REQUIRE(g.m >= 0 && g.n >= 0 && g.k >= 0 && g.batch >= 0, op, ": negative size m=", g.m,
             " n=", g.n, " k=", g.k, " batch=", g.batch);
  const std::int64_t big = INT_MAX;
  KT_REQUIRE(g.m <= big && g.n <= big && g.k <= big && g.batch <= big && g.lda <= big &&
                 g.ldb <= big && g.ldc <= big,
             op, ": sizes and leading dimensions must fit in int for cuBLAS", describe(g));
  if (g.m == 0 || g.n == 0 || g.batch == 0) return;  // nothing is read or written
  KT_REQUIRE(g.ldc >= g.n, op, ": ldc=", g.ldc, " is smaller than n=", g.n);
  KT_REQUIRE(g.c != nullptr, op, ": C is null", describe(g));
  if (g.batch > 1) {  // overlapping C entries would make the result depend on the schedule
    KT_REQUIRE(g.stride_c >= (g.m - 1) * g.ldc + g.n, op, ": stride_c=", g.stride_c,
               " makes the C matrices of the batch overlap", describe(g));
    KT_REQUIRE(g.stride_a >= 0 && g.stride_b >= 0, op, ": negative stride_a=", g.stride_a,
               " or stride_b=", g.stride_b);
  }
  if (g.k == 0) return;  // A and B are not read
  const std::int64_t a_cols = g.trans_a ? g.m : g.k, b_cols = g.trans_b ? g.k : g.n;
  KT_REQUIRE(g.lda >= a_cols, op, ": lda=", g.lda, " is smaller than A's row length ", a_cols);
  KT_REQUIRE(g.ldb >= b_cols, op, ": ldb=", g.ldb, " is smaller than B's row length ", b_cols);
  KT_REQUIRE(g.a != nullptr && g.b != nullptr, op, ": A or B is null", describe(g));
}

/// C[b] = 0 for every entry (k == 0, beta == 0): plain memsets, bit pattern 0 is +0 in
/// every supported type. One 2-D memset when the batch entries are evenly packed.
inline void zero_c(cudaStream_t stream, const GemmArgs& g) {
  const std::size_t es = element_size(g.type);
  const bool packed = g.batch == 1 || g.stride_c == g.m * g.ldc;
  const std::int64_t entries = packed ? 1 : g.batch, rows = packed ? g.m * g.batch : g.m;
  for (std::int64_t e = 0; e < entries; ++e) {
    char* c = static_cast<char*>(g.c) + static_cast<std::size_t>(e * g.stride_c) * es;
    KT_CUDA_CHECK(cudaMemset2DAsync(c, g.ldc * es, 0, g.n * es, rows, stream));
  }
}

/// Calls the cuBLAS GEMM for g on h (bound to the stream, pointer mode host). g is valid and
/// not empty.
inline void run_cublas_gemm(cublasHandle_t h, const GemmArgs& g) {
  // cuBLAS is column-major, and a row-major X (ld) is the column-major Xᵀ (same ld). So
  // C = op(A) op(B) is computed as Cᵀ = op(B)ᵀ op(A)ᵀ: B first, A second, m and n swapped.
  const cublasOperation_t op_a = g.trans_a ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasOperation_t op_b = g.trans_b ? CUBLAS_OP_T : CUBLAS_OP_N;
  // m, n, k below are cuBLAS' (column-major) sizes.
  const int m = static_cast<int>(g.n), n = static_cast<int>(g.m), k = static_cast<int>(g.k);
  // Rows of the column-major views; max() only matters for k == 0 (operands unread), where
  // cuBLAS still insists on ld >= max(1, rows).
  const int lda = static_cast<int>(std::max<std::int64_t>({g.lda, 1, g.trans_a ? g.m : g.k}));
  const int ldb = static_cast<int>(std::max<std::int64_t>({g.ldb, 1, g.trans_b ? g.k : g.n}));
  const int ldc = static_cast<int>(g.ldc), batch = static_cast<int>(g.batch);
  const long long sa = g.stride_a, sb = g.stride_b, sc = g.stride_c;

  cublasStatus_t s = CUBLAS_STATUS_SUCCESS;
  const char* call = "";
  if (g.type == CUDA_R_64F) {
    const double alpha = g.alpha, beta = g.beta;
    const auto* A = static_cast<const double*>(g.a);
    const auto* B = static_cast<const double*>(g.b);
    auto* C = static_cast<double*>(g.c);
    if (batch == 1) {
      call = "cublasDgemm";
      s = cublasDgemm(h, op_b, op_a, m, n, k, &alpha, B, ldb, A, lda, &beta, C, ldc);
    } else {
      call = "cublasDgemmStridedBatched";
      s = cublasDgemmStridedBatched(h, op_b, op_a, m, n, k, &alpha, B, ldb, sb, A, lda, sa, &beta,
                                    C, ldc, sc, batch);
    }
  } else if (g.type == CUDA_R_32F) {
    const float alpha = static_cast<float>(g.alpha), beta = static_cast<float>(g.beta);
    const auto* A = static_cast<const float*>(g.a);
    const auto* B = static_cast<const float*>(g.b);
    auto* C = static_cast<float*>(g.c);
    if (batch == 1) {
      call = "cublasSgemm";
      s = cublasSgemm(h, op_b, op_a, m, n, k, &alpha, B, ldb, A, lda, &beta, C, ldc);
    } else {
      call = "cublasSgemmStridedBatched";
      s = cublasSgemmStridedBatched(h, op_b, op_a, m, n, k, &alpha, B, ldb, sb, A, lda, sa, &beta,
                                    C, ldc, sc, batch);
    }
  } else {  // CUDA_R_16F, CUDA_R_16BF: 16-bit storage, fp32 compute (CUBLAS_COMPUTE_32F)
    const float alpha = static_cast<float>(g.alpha), beta = static_cast<float>(g.beta);
    const cudaDataType_t t = g.type;
    if (batch == 1) {
      call = "cublasGemmEx";
      s = cublasGemmEx(h, op_b, op_a, m, n, k, &alpha, g.b, t, ldb, g.a, t, lda, &beta, g.c, t,
                       ldc, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    } else {
      call = "cublasGemmStridedBatchedEx";
      s = cublasGemmStridedBatchedEx(h, op_b, op_a, m, n, k, &alpha, g.b, t, ldb, sb, g.a, t, lda,
                                     sa, &beta, g.c, t, ldc, sc, batch, CUBLAS_COMPUTE_32F,
                                     CUBLAS_GEMM_DEFAULT);
    }
  }
  if (s != CUBLAS_STATUS_SUCCESS) throw_cublas(s, call, __FILE__, __LINE__, describe(g));
}

}  // namespace kt::cuda::impl
