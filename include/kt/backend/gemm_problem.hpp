#pragma once
/// \file kt/backend/gemm_problem.hpp
/// One (batched) matrix product described by raw pointers — what every GEMM back-end takes:
/// C[b] = alpha * op(A[b]) * op(B[b]) + beta * C[b] for b in [0, batch), all row-major.
///
///     kt::GemmProblem<float> p;
///     p.m = 256; p.n = 512; p.k = 784;
///     p.a = x; p.lda = 784;                         // x: (256, 784)
///     p.b = w; p.ldb = 784; p.trans_b = kt::Transpose::Yes;   // w: (512, 784), used as wᵀ
///     p.c = y; p.ldc = 512;

#include "kt/core/dtype.hpp"
#include "kt/core/error.hpp"

#include <cstdint>
#include <string>

namespace kt {

/// Whether a GEMM operand is used as stored or transposed (op(X) = X or Xᵀ).
enum class Transpose : bool { No = false, Yes = true };

/// The implementations kt can run a GEMM with. Auto lets kt choose (heuristic or tuning).
enum class GemmBackend : int {
  Auto = 0,
  Kokkos,  ///< kt's portable Kokkos kernel: any device, deterministic at any thread count
  Eigen,   ///< Eigen's GEMM (host, float/double)
  Blas,    ///< a CBLAS library found at configure time (OpenBLAS), host, float/double
  Cublas,  ///< cuBLAS on Cuda devices
};

inline const char* to_string(GemmBackend backend) {
  switch (backend) {
    case GemmBackend::Auto: return "auto";
    case GemmBackend::Kokkos: return "kokkos";
    case GemmBackend::Eigen: return "eigen";
    case GemmBackend::Blas: return "blas";
    case GemmBackend::Cublas: return "cublas";
  }
  return "?";
}

/// A row-major batched GEMM over raw pointers in one memory space. Operand X of a batch entry
/// b starts at x + b * stride_x (a stride of 0 reuses one matrix for every entry).
template <class T>
struct GemmProblem {
  Transpose trans_a = Transpose::No, trans_b = Transpose::No;
  std::int64_t m = 0, n = 0, k = 0;  ///< op(A) is m x k, op(B) is k x n, C is m x n
  std::int64_t batch = 1;
  const T* a = nullptr;
  std::int64_t lda = 0, stride_a = 0;  ///< lda: elements between rows of A as stored
  const T* b = nullptr;
  std::int64_t ldb = 0, stride_b = 0;
  T* c = nullptr;
  std::int64_t ldc = 0, stride_c = 0;
  compute_t<T> alpha = 1, beta = 0;  ///< beta == 0: C's old contents are ignored (even NaN)

  /// Floating-point operations of the whole batch (2mnk per entry).
  double flops() const { return 2.0 * double(m) * double(n) * double(k) * double(batch); }
};

namespace impl {
/// Checks a problem's sizes and leading dimensions (the tensor layer builds valid ones; this
/// guards direct users of the raw interface).
template <class T>
void validate(const GemmProblem<T>& p, const char* op) {
  KT_REQUIRE(p.m >= 0 && p.n >= 0 && p.k >= 0 && p.batch >= 0, op, ": negative size m=", p.m,
             " n=", p.n, " k=", p.k, " batch=", p.batch);
  const std::int64_t a_cols = p.trans_a == Transpose::No ? p.k : p.m;
  const std::int64_t b_cols = p.trans_b == Transpose::No ? p.n : p.k;
  KT_REQUIRE(p.lda >= a_cols || a_cols == 0 || p.m == 0 || p.k == 0, op, ": lda=", p.lda,
             " is smaller than A's row length ", a_cols);
  KT_REQUIRE(p.ldb >= b_cols || b_cols == 0 || p.n == 0 || p.k == 0, op, ": ldb=", p.ldb,
             " is smaller than B's row length ", b_cols);
  KT_REQUIRE(p.ldc >= p.n || p.n == 0 || p.m == 0, op, ": ldc=", p.ldc, " is smaller than n=", p.n);
}
}  // namespace impl

}  // namespace kt
