#pragma once
/// \file kt/functional/layer_norm.hpp
/// Layer normalisation over the trailing dimensions (`torch.nn.functional.layer_norm`):
/// y = (x − mean) / sqrt(var + eps) · weight + bias, with the biased variance, statistics
/// per leading index. Composed of differentiable kt ops, so its gradient is theirs.
///
///     kt::Var<float> x(kt::randn<float>({32, 64}, 0), true);
///     kt::Var<float> w(kt::ones<float>({64}), true), b(kt::zeros<float>({64}), true);
///     auto y = kt::layer_norm(x, {64}, w, b);

#include "kt/autograd/elementwise.hpp"
#include "kt/autograd/reduce.hpp"
#include "kt/autograd/shape_ops.hpp"
#include "kt/autograd/unary.hpp"
#include "kt/autograd/impl/operand.hpp"
#include "kt/autograd/var.hpp"

#include <cstdint>
#include <vector>

namespace kt {

/// weight and bias are optional (undefined Vars) and have shape normalized_shape.
template <class T, class D>
Var<T, D> layer_norm(const Var<T, D>& x, const std::vector<std::int64_t>& normalized_shape,
                     const Var<T, D>& weight = {}, const Var<T, D>& bias = {}, double eps = 1e-5) {
  KT_PROFILE_REGION("kt::layer_norm");
  impl::require_defined("kt::layer_norm", {x});
  const Shape& s = x.shape();
  const int k = static_cast<int>(normalized_shape.size());
  bool matches = k >= 1 && k <= s.rank();
  for (int i = 0; matches && i < k; ++i) matches = s[s.rank() - k + i] == normalized_shape[static_cast<std::size_t>(i)];
  KT_REQUIRE(matches, "kt::layer_norm: normalized_shape ", Shape(normalized_shape).str(),
             " does not match the trailing dimensions of the input ", s.str());
  for (const Var<T, D>* p : {&weight, &bias})
    KT_REQUIRE(!p->defined() || p->shape() == Shape(normalized_shape), "kt::layer_norm: ",
               p == &weight ? "weight" : "bias", " has shape ", p->defined() ? p->shape().str() : "",
               " but normalized_shape is ", Shape(normalized_shape).str());
  const Var<T, D> rows = reshape(x, {-1, Shape(normalized_shape).numel()});
  const Var<T, D> centred = rows - mean(rows, 1, /*keepdim=*/true);
  const Var<T, D> variance = mean(centred * centred, 1, /*keepdim=*/true);
  Var<T, D> y = reshape(centred / sqrt(variance + eps), s.dims());
  if (weight.defined()) y = y * weight;
  if (bias.defined()) y = y + bias;
  return y;
}

/// The same with Tensors and Vars mixed (a constant Tensor input with trained Var weight and
/// bias, say): each Tensor becomes a constant Var of the same device and dtype.
template <class X, class W, class B, impl::var_operands_t<X, W, B> = 0>
auto layer_norm(const X& x, const std::vector<std::int64_t>& normalized_shape, const W& weight, const B& bias,
                double eps = 1e-5) {
  using V = impl::var_of_t<X, W, B>;
  impl::require_compatible<V, X>();
  impl::require_compatible<V, W>();
  impl::require_compatible<V, B>();
  return layer_norm(impl::as_var<V>(x), normalized_shape, impl::as_var<V>(weight), impl::as_var<V>(bias), eps);
}

}  // namespace kt
