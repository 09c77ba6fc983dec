#pragma once
/// \file kt/autograd/softmax.hpp
/// `kt::softmax` and `kt::log_softmax` along a dimension, for tensors and Vars. Both subtract
/// the maximum first, so large inputs do not overflow. Backward: softmax gives
/// y ⊙ (g − Σ g⊙y), log_softmax gives g − exp(y) ⊙ Σ g (sums along dim).
///
///     auto logits = kt::randn<float>({32, 10}, 0);
///     auto p = kt::softmax(logits, /*dim=*/1);            // rows sum to 1
///     kt::Var<float> z(logits, true);
///     auto logp = kt::log_softmax(z, -1);                 // differentiable

#include "kt/autograd/impl/record.hpp"
#include "kt/autograd/var.hpp"
#include "kt/tensor/elementwise.hpp"
#include "kt/tensor/reduce.hpp"
#include "kt/tensor/unary.hpp"

#include <vector>

namespace kt {

/// exp(x) / Σ exp(x) along dim (`torch.softmax`).
template <class T, class D>
Tensor<T, D> softmax(const Tensor<T, D>& x, int dim) {
  static_assert(is_floating_dtype_v<T>, "kt::softmax: needs a floating dtype");
  KT_PROFILE_REGION("kt::softmax");
  const Tensor<T, D> e = exp(x - max(x, dim, /*keepdim=*/true));
  return e / sum(e, dim, /*keepdim=*/true);
}

/// x − log Σ exp(x) along dim (`torch.log_softmax`).
template <class T, class D>
Tensor<T, D> log_softmax(const Tensor<T, D>& x, int dim) {
  static_assert(is_floating_dtype_v<T>, "kt::log_softmax: needs a floating dtype");
  KT_PROFILE_REGION("kt::log_softmax");
  const Tensor<T, D> shifted = x - max(x, dim, /*keepdim=*/true);
  return shifted - log(sum(exp(shifted), dim, /*keepdim=*/true));
}

template <class T, class D>
Var<T, D> softmax(const Var<T, D>& x, int dim) {
  impl::require_defined("kt::softmax", {x});
  Tensor<T, D> y = softmax(x.data(), dim);
  return impl::record("kt::softmax", y, {x}, [y, dim](const Tensor<T, D>& g, const impl::Needs&) {
    return std::vector<Tensor<T, D>>{y * (g - sum(g * y, dim, /*keepdim=*/true))};
  });
}

template <class T, class D>
Var<T, D> log_softmax(const Var<T, D>& x, int dim) {
  impl::require_defined("kt::log_softmax", {x});
  Tensor<T, D> y = log_softmax(x.data(), dim);
  return impl::record("kt::log_softmax", y, {x}, [y, dim](const Tensor<T, D>& g, const impl::Needs&) {
    return std::vector<Tensor<T, D>>{g - exp(y) * sum(g, dim, /*keepdim=*/true)};
  });
}

}  // namespace kt
