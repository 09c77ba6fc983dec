#pragma once
// GEMM through Eigen (host memory, float/double), compiled in where KT_ENABLE_EIGEN is
// defined: kt's CMake defines it when Eigen is found and either no CBLAS library is or
// KT_EIGEN_GEMM is on. Its threads are OpenMP threads.

#include "kt/core/impl/internal.hpp"

#include "kt/backend/gemm_problem.hpp"
#include "kt/core/error.hpp"

#if defined(KT_ENABLE_EIGEN)
#include <Eigen/Core>

#include <type_traits>

namespace kt::impl {

inline constexpr bool have_eigen_gemm = true;

template <class T>
void gemm_eigen(const GemmProblem<T>& p, int threads) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                "kt::impl::gemm_eigen: float and double only");
  using Matrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using ConstMap = Eigen::Map<const Matrix, Eigen::Unaligned, Eigen::OuterStride<>>;
  using Map = Eigen::Map<Matrix, Eigen::Unaligned, Eigen::OuterStride<>>;
  // Eigen's thread count is a process-wide setting: set it for this call, restore it after.
  struct ThreadScope {
    int saved = Eigen::nbThreads();
    explicit ThreadScope(int n) { Eigen::setNbThreads(n); }
    ~ThreadScope() { Eigen::setNbThreads(saved); }
  } scope(threads);
  const T alpha = static_cast<T>(p.alpha), beta = static_cast<T>(p.beta);
  const bool ta = p.trans_a == Transpose::Yes, tb = p.trans_b == Transpose::Yes;
  for (std::int64_t i = 0; i < p.batch; ++i) {
    const ConstMap a(p.a + i * p.stride_a, ta ? p.k : p.m, ta ? p.m : p.k, Eigen::OuterStride<>(p.lda));
    const ConstMap b(p.b + i * p.stride_b, tb ? p.n : p.k, tb ? p.k : p.n, Eigen::OuterStride<>(p.ldb));
    Map c(p.c + i * p.stride_c, p.m, p.n, Eigen::OuterStride<>(p.ldc));
    if (beta == T(0)) c.setZero();  // BLAS semantics: beta == 0 ignores C, even NaN
    else if (beta != T(1)) c *= beta;
    // Each branch is one Eigen GEMM call with alpha folded in; no temporaries.
    if (!ta && !tb) c.noalias() += alpha * a * b;
    else if (!ta && tb) c.noalias() += alpha * a * b.transpose();
    else if (ta && !tb) c.noalias() += alpha * a.transpose() * b;
    else c.noalias() += alpha * a.transpose() * b.transpose();
  }
}

}  // namespace kt::impl

#else

namespace kt::impl {
inline constexpr bool have_eigen_gemm = false;
template <class T>
void gemm_eigen(const GemmProblem<T>&, int) {
  KT_THROW("kt::gemm: the eigen back-end is not compiled in: configure kt with -DKT_EIGEN_GEMM=ON (and Eigen "
           "installed), or define KT_ENABLE_EIGEN for every translation unit of the program");
}
}  // namespace kt::impl

#endif
