#pragma once
/// \file kt/autograd/linear.hpp
/// The fused Linear layer as a differentiable op: y = act(x · Wᵀ + b) in one GEMM plus one
/// epilogue pass, and a backward pass of one fused pass (activation gradient, bias gradient)
/// plus the GEMMs for dW and — only when x needs it — dx (kt/tensor/linear.hpp).
///
///     kt::Var<float> x(kt::randn<float>({32, 64}, 0));
///     kt::Var<float> w(kt::randn<float>({10, 64}, 1), true), b(kt::zeros<float>({10}), true);
///     auto y = kt::linear(x, w, b, kt::Activation::ReLU);   // (32, 10)

#include "kt/autograd/impl/record.hpp"
#include "kt/autograd/var.hpp"
#include "kt/tensor/linear.hpp"

#include <vector>

namespace kt {

/// act(x · wᵀ + b); x: (N, in), w: (out, in), b: (out) or undefined for no bias.
template <class T, class D>
Var<T, D> linear(const Var<T, D>& x, const Var<T, D>& w, const Var<T, D>& b = {},
                 Activation act = Activation::Identity) {
  KT_PROFILE_REGION("kt::linear(Var)");
  impl::require_defined("kt::linear", {x, w});
  const bool has_bias = b.defined();
  const Tensor<T, D> bias = has_bias ? b.data() : Tensor<T, D>();
  const Var<T, D> inputs[3] = {x, w, b};  // b only counts when defined
  const bool recording = impl::should_record(inputs, inputs + (has_bias ? 3 : 2));
  if (!recording) return Var<T, D>(kt::linear(x.data(), w.data(), bias, act));
  LinearForward<T, D> fwd = linear_forward(x.data(), w.data(), bias, act);
  Tensor<T, D> out = fwd.output;
  return impl::record("kt::linear", out, inputs, inputs + (has_bias ? 3 : 2),
                      [xv = x.data(), wv = w.data(), fwd = std::move(fwd), act, has_bias](
                          const Tensor<T, D>& g, const impl::Needs& needs) {
                        LinearGrads<T, D> grads = linear_backward(g, xv, wv, fwd, act, has_bias, needs[0]);
                        std::vector<Tensor<T, D>> out{grads.dx, needs[1] ? grads.dw : Tensor<T, D>()};
                        if (has_bias) out.push_back(grads.db);
                        return out;
                      });
}

}  // namespace kt
