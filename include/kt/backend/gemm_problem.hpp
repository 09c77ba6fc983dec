#pragma once
/// \file kt/backend/gemm_problem.hpp
/// One (batched) matrix product described by raw pointers — the one descriptor kt::matmul
/// builds and every GEMM back-end takes, the cuBLAS adapter included:
/// C[b] = alpha * op(A[b]) * op(B[b]) + beta * C[b] for b in [0, batch), all row-major.
/// Kokkos-free, so kt's nvcc-only CUDA adapters can use it too.
///
///     kt::GemmProblem<float> p;
///     p.m = 256; p.n = 512; p.k = 784;
///     p.a = x; p.lda = 784;                         // x: (256, 784)
///     p.b = w; p.ldb = 784; p.trans_b = kt::Transpose::Yes;   // w: (512, 784), used as wᵀ
///     p.c = y; p.ldc = 512;
///     kt::gemm(kt::OpenMP(), p, kt::GemmOptions().backend(kt::GemmBackend::Eigen).threads(1));
///
/// A 16-bit product may write an fp32 C (`GemmProblem<kt::bfloat16, float>`: cuBLAS' GemmEx
/// with Ctype 32F): the fp32 accumulation is stored without the final rounding to 16 bits —
/// what mixed-precision training wants for the gradient of an fp32 master weight.

#include "kt/core/error.hpp"

#include <cstdint>
#include <type_traits>

namespace kt {

// The 16-bit types need only be named here (this header stays Kokkos-free).
class half;
class bfloat16;

/// Whether a product of T operands may write a C of element type C: C == T, or fp32 for 16-bit T.
template <class T, class C>
inline constexpr bool gemm_output_ok_v =
    std::is_same_v<T, C> || ((std::is_same_v<T, half> || std::is_same_v<T, bfloat16>) && std::is_same_v<C, float>);

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
  return "unknown";
}

/// Forces a back-end and/or a thread count for one GEMM (Auto / 0: let kt choose, see
/// kt/backend/tuning.hpp).
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

/// A row-major batched GEMM over raw pointers in one memory space. Operand X of a batch entry
/// b starts at x + b * stride_x (a stride of 0 reuses one matrix for every entry). T: float,
/// double, kt::half, kt::bfloat16 (16-bit inputs accumulate in fp32), or an integer type for
/// kt's own kernels. C: C's element type, T or — for 16-bit T — float.
template <class T, class C = T>
struct GemmProblem {
  static_assert(gemm_output_ok_v<T, C>, "kt::GemmProblem<T, C>: C must be T, or float for 16-bit T");
  Transpose trans_a = Transpose::No, trans_b = Transpose::No;
  std::int64_t m = 0, n = 0, k = 0;  ///< op(A) is m x k, op(B) is k x n, C is m x n
  std::int64_t batch = 1;
  const T* a = nullptr;
  std::int64_t lda = 0, stride_a = 0;  ///< lda: elements between rows of A as stored
  const T* b = nullptr;
  std::int64_t ldb = 0, stride_b = 0;
  C* c = nullptr;
  std::int64_t ldc = 0, stride_c = 0;
  /// Rounded to the accumulation type (fp32 for 16-bit and float). beta == 0: C's old
  /// contents are ignored (even NaN).
  double alpha = 1, beta = 0;

  /// Floating-point operations of the whole batch (2mnk per entry).
  double flops() const { return 2.0 * double(m) * double(n) * double(k) * double(batch); }
  /// True when the product writes nothing (m, n or batch is 0).
  bool empty() const { return m == 0 || n == 0 || batch == 0; }
};

}  // namespace kt

namespace kt::impl {

/// Checks sizes, leading dimensions, strides and pointers of p; kt::Error naming `op` otherwise.
/// Made once at each public entry that takes a problem from a user (kt::gemm, kt::cuda::gemm);
/// kt::matmul builds valid problems from shapes and skips it.
template <class T, class C>
void validate_gemm(const GemmProblem<T, C>& p, const char* op) {
  KT_REQUIRE(p.m >= 0 && p.n >= 0 && p.k >= 0 && p.batch >= 0, op, ": negative size m=", p.m,
             " n=", p.n, " k=", p.k, " batch=", p.batch);
  if (p.empty()) return;  // nothing is read or written
  KT_REQUIRE(p.ldc >= p.n, op, ": ldc=", p.ldc, " is smaller than n=", p.n);
  KT_REQUIRE(p.c != nullptr, op, ": C is null (m=", p.m, " n=", p.n, ")");
  if (p.batch > 1) {  // overlapping C entries would make the result depend on the schedule
    KT_REQUIRE(p.stride_c >= (p.m - 1) * p.ldc + p.n, op, ": stride_c=", p.stride_c,
               " makes the C matrices of the batch overlap (m=", p.m, " n=", p.n, " ldc=", p.ldc, ")");
    KT_REQUIRE(p.stride_a >= 0 && p.stride_b >= 0, op, ": negative stride_a=", p.stride_a,
               " or stride_b=", p.stride_b);
  }
  if (p.k == 0) return;  // A and B are not read
  const std::int64_t a_cols = p.trans_a == Transpose::No ? p.k : p.m;
  const std::int64_t b_cols = p.trans_b == Transpose::No ? p.n : p.k;
  KT_REQUIRE(p.lda >= a_cols, op, ": lda=", p.lda, " is smaller than A's row length ", a_cols);
  KT_REQUIRE(p.ldb >= b_cols, op, ": ldb=", p.ldb, " is smaller than B's row length ", b_cols);
  KT_REQUIRE(p.a != nullptr && p.b != nullptr, op, ": A or B is null (m=", p.m, " n=", p.n,
             " k=", p.k, ")");
}

}  // namespace kt::impl
