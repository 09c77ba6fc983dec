#pragma once
/// \file kt/tensor/softmax.hpp
/// `kt::softmax` and `kt::log_softmax` of tensors along a dimension (the differentiable forms
/// are in kt/functional/softmax.hpp). Both subtract the maximum first, so large inputs do not
/// overflow; 16-bit inputs compute in fp32. Each also takes an execution-space instance first.
///
///     auto logits = kt::randn<float>({32, 10}, 0);
///     auto p = kt::softmax(logits, /*dim=*/1);            // rows sum to 1
///     auto logp = kt::log_softmax(exec, logits, -1);      // ordered on the instance exec

#include "kt/tensor/elementwise.hpp"
#include "kt/tensor/reduce.hpp"
#include "kt/tensor/tensor.hpp"
#include "kt/tensor/unary.hpp"

namespace kt {

/// exp(x) / Σ exp(x) along dim (`torch.softmax`).
template <class T, class D>
Tensor<T, D> softmax(const D& exec, const Tensor<T, D>& x, int dim) {
  static_assert(is_floating_dtype_v<T>, "kt::softmax: needs a floating dtype");
  KT_PROFILE_REGION("kt::softmax");
  const Tensor<T, D> e = exp(exec, sub(exec, x, max(exec, x, dim, /*keepdim=*/true)));
  return div(exec, e, sum(exec, e, dim, /*keepdim=*/true));
}
template <class T, class D>
Tensor<T, D> softmax(const Tensor<T, D>& x, int dim) { return softmax(D(), x, dim); }

/// x − log Σ exp(x) along dim (`torch.log_softmax`).
template <class T, class D>
Tensor<T, D> log_softmax(const D& exec, const Tensor<T, D>& x, int dim) {
  static_assert(is_floating_dtype_v<T>, "kt::log_softmax: needs a floating dtype");
  KT_PROFILE_REGION("kt::log_softmax");
  const Tensor<T, D> shifted = sub(exec, x, max(exec, x, dim, /*keepdim=*/true));
  return sub(exec, shifted, log(exec, sum(exec, exp(exec, shifted), dim, /*keepdim=*/true)));
}
template <class T, class D>
Tensor<T, D> log_softmax(const Tensor<T, D>& x, int dim) { return log_softmax(D(), x, dim); }

}  // namespace kt
