#pragma once
// The checks of a GemmProblem, made once at each public entry that takes one from a user
// (kt::gemm, kt::cuda::gemm); kt::matmul builds valid problems from shapes and skips them.
// Kokkos-free, like kt/backend/gemm_problem.hpp.

#include "kt/core/impl/internal.hpp"

#include "kt/backend/gemm_problem.hpp"
#include "kt/core/error.hpp"

#include <cstdint>

namespace kt::impl {

/// Sizes, leading dimensions, strides and pointers of p; kt::Error naming `op` otherwise.
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
