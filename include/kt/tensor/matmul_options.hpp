#pragma once
/// \file kt/tensor/matmul_options.hpp
/// Options of kt::matmul and kt::addmm_: transposes, scaling, and (rarely) a forced GEMM
/// back-end or thread count.
///
///     auto y = kt::matmul(x, w, kt::MatmulOptions().transpose_b(true));   // x · wᵀ (Linear)
///     kt::addmm_(grad_w, dy, x, kt::MatmulOptions().transpose_a(true).beta(1));  // += dyᵀ · x

#include "kt/core/impl/public_begin.hpp"

#include "kt/backend/gemm_problem.hpp"

namespace kt {

class MatmulOptions {
public:
  /// Use aᵀ (the last two dims swapped) instead of a.
  MatmulOptions& transpose_a(bool on) { trans_a_ = on ? Transpose::Yes : Transpose::No; return *this; }
  MatmulOptions& transpose_b(bool on) { trans_b_ = on ? Transpose::Yes : Transpose::No; return *this; }
  /// Scales the product.
  MatmulOptions& alpha(double a) { alpha_ = a; return *this; }
  /// addmm_ only: keeps beta times the output's old contents (0: overwrite, even NaN).
  MatmulOptions& beta(double b) { beta_ = b; return *this; }
  /// Forces a GEMM back-end / thread count (default: kt chooses, see kt/backend/tuning.hpp).
  MatmulOptions& backend(GemmBackend b) { gemm_.backend(b); return *this; }
  MatmulOptions& threads(int n) { gemm_.threads(n); return *this; }

  Transpose trans_a() const { return trans_a_; }
  Transpose trans_b() const { return trans_b_; }
  double alpha() const { return alpha_; }
  double beta() const { return beta_; }
  const GemmOptions& gemm() const { return gemm_; }

private:
  Transpose trans_a_ = Transpose::No, trans_b_ = Transpose::No;
  double alpha_ = 1, beta_ = 0;
  GemmOptions gemm_;
};

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
