#pragma once
/// \file kt/functional/softmax.hpp
/// Differentiable `kt::softmax` and `kt::log_softmax` of a Var along a dimension (the tensor
/// forms are in kt/tensor/softmax.hpp). Backward: softmax gives y ⊙ (g − Σ g⊙y), log_softmax
/// gives g − exp(y) ⊙ Σ g (sums along dim).
///
///     kt::Var<float> z(kt::randn<float>({32, 10}, 0), true);
///     auto logp = kt::log_softmax(z, -1);

#include "kt/autograd/impl/record.hpp"
#include "kt/autograd/var.hpp"
#include "kt/tensor/elementwise.hpp"
#include "kt/tensor/reduce.hpp"
#include "kt/tensor/softmax.hpp"
#include "kt/tensor/unary.hpp"

#include <vector>

namespace kt {

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
