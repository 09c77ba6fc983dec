#pragma once
/// \file kt/functional/linear.hpp
/// The fused Linear layer as a differentiable function (`torch.nn.functional.linear` plus an
/// activation): y = act(x · wᵀ + b) in one GEMM plus one epilogue pass; its backward is one
/// fused pass (activation gradient, bias gradient) plus the GEMMs for dw and — only when x
/// needs it — dx. The tensor kernels are kt/tensor/linear.hpp. Any operand may be a Tensor
/// (a constant).
///
///     kt::Tensor<float> x = kt::randn<float>({32, 64}, 0);
///     kt::Var<float> w(kt::randn<float>({10, 64}, 1), true), b(kt::zeros<float>({10}), true);
///     auto y = kt::linear(x, w, b, kt::Activation::ReLU);   // (32, 10)

#include "kt/core/impl/public_begin.hpp"

#include "kt/autograd/impl/autocast_dispatch.hpp"
#include "kt/autograd/impl/operand.hpp"
#include "kt/autograd/impl/record.hpp"
#include "kt/autograd/var.hpp"
#include "kt/functional/impl/linear_node.hpp"
#include "kt/tensor/linear.hpp"

namespace kt {

/// act(x · wᵀ + b); x: (N, in), w: (out, in), b: (out) or an undefined Var for no bias.
template <class X, class W, class B = impl::var_of_t<X, W>, impl::var_operands_t<X, W, B> = 0>
auto linear(const X& x_, const W& w_, const B& b_, Activation act = Activation::Identity) {
  using V = impl::var_of_t<X, W, B>;
  impl::require_compatible<V, X>();
  impl::require_compatible<V, W>();
  impl::require_compatible<V, B>();
  using T = typename V::value_type;
  using D = typename V::device_type;
  KT_PROFILE_REGION("kt::linear(Var)");
  const V x = impl::as_var<V>(x_), w = impl::as_var<V>(w_);
  const V b = impl::is_tensor_v<B> && !impl::value_of(b_).defined() ? V() : V(impl::as_var<V>(b_));
  impl::require_defined("kt::linear", {x, w});
  // kt::amp::autocast: the GEMM and epilogue in 16 bits (what backward saves is 16-bit too),
  // the result widened to fp32 with its 16-bit twin; w's gradient arrives in fp32 unrounded
  // (kt/functional/impl/linear_node.hpp).
  if (V result; impl::autocast_dispatch<impl::op_tag::Linear, T, D>(
          result, [act](auto h, const V& xf, const V& wf, const V& bf) { return impl::autocast_linear<decltype(h)>(xf, wf, bf, act); },
          x, w, b))
    return result;
  return impl::record_linear(x, w, b, w.data(), b.defined() ? b.data() : Tensor<T, D>(), act, {});
}

/// Without bias.
template <class X, class W, impl::var_operands_t<X, W> = 0>
auto linear(const X& x, const W& w, Activation act = Activation::Identity) {
  return linear(x, w, impl::var_of_t<X, W>(), act);
}

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
