#pragma once
/// \file kt/functional/activation.hpp
/// Differentiable activations of a Var: `relu`, `gelu` (exact erf form), `tanh`, `sigmoid`,
/// and `activation(x, act)` for a kt::Activation chosen at run time. Values and derivatives
/// are the functors of kt/tensor/impl/ops.hpp, shared with the tensor ops and the fused Linear
/// epilogue.
///
///     kt::Var<float> x(kt::randn<float>({8, 16}, 0), true);
///     auto y = kt::gelu(kt::relu(x));

#include "kt/core/impl/public_begin.hpp"

#include "kt/autograd/impl/unary_grad.hpp"
#include "kt/autograd/var.hpp"
#include "kt/tensor/activation.hpp"
#include "kt/tensor/impl/with_activation.hpp"

namespace kt {

template <class T, class D>
Var<T, D> relu(const Var<T, D>& x) { return impl::var_unary<impl::op::Relu>("kt::relu", x); }
template <class T, class D>
Var<T, D> gelu(const Var<T, D>& x) { return impl::var_unary<impl::op::Gelu>("kt::gelu", x); }
template <class T, class D>
Var<T, D> tanh(const Var<T, D>& x) { return impl::var_unary<impl::op::Tanh>("kt::tanh", x); }
template <class T, class D>
Var<T, D> sigmoid(const Var<T, D>& x) { return impl::var_unary<impl::op::Sigmoid>("kt::sigmoid", x); }

/// act(x) for an activation chosen at run time (Identity returns x itself).
template <class T, class D>
Var<T, D> activation(const Var<T, D>& x, Activation act) {
  return impl::with_activation(act, [&](auto f) {
    using Op = decltype(f);
    if constexpr (std::is_same_v<Op, impl::op::Identity>) return x;
    else return impl::var_unary<Op>(to_string(act), x);
  });
}

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
