#pragma once
/// \file kt/tensor/softmax.hpp
/// `kt::softmax` and `kt::log_softmax` of tensors along a dimension (the differentiable forms
/// are in kt/functional/softmax.hpp). Both subtract the maximum first, so large inputs do not
/// overflow; one pass per row, accumulating in fp32 for 16-bit inputs (in double for float)
/// and rounding once (kt/tensor/impl/softmax_impl.hpp). Each also takes an execution-space
/// instance first.
///
///     auto logits = kt::randn<float>({32, 10}, 0);
///     auto p = kt::softmax(logits, /*dim=*/1);            // rows sum to 1
///     auto logp = kt::log_softmax(exec, logits, -1);      // ordered on the instance exec

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/dtype.hpp"
#include "kt/core/profiling.hpp"
#include "kt/tensor/impl/softmax_impl.hpp"
#include "kt/tensor/tensor.hpp"

namespace kt {

/// exp(x) / Σ exp(x) along dim (`torch.softmax`).
template <class T, class D>
Tensor<T, D> softmax(const D& exec, const Tensor<T, D>& x, int dim) {
  static_assert(is_floating_dtype_v<T>, "kt::softmax: needs a floating dtype");
  KT_PROFILE_REGION("kt::softmax");
  return impl::softmax_forward<false>(exec, "kt::softmax", x, dim);
}
template <class T, class D>
Tensor<T, D> softmax(const Tensor<T, D>& x, int dim) { return softmax(D(), x, dim); }

/// x − log Σ exp(x) along dim (`torch.log_softmax`).
template <class T, class D>
Tensor<T, D> log_softmax(const D& exec, const Tensor<T, D>& x, int dim) {
  static_assert(is_floating_dtype_v<T>, "kt::log_softmax: needs a floating dtype");
  KT_PROFILE_REGION("kt::log_softmax");
  return impl::softmax_forward<true>(exec, "kt::log_softmax", x, dim);
}
template <class T, class D>
Tensor<T, D> log_softmax(const Tensor<T, D>& x, int dim) { return log_softmax(D(), x, dim); }

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
