#pragma once
/// \file kt/functional/softmax.hpp
/// Differentiable `kt::softmax` and `kt::log_softmax` of a Var along a dimension (the tensor
/// forms are in kt/tensor/softmax.hpp). Backward: softmax gives y ⊙ (g − Σ g⊙y), log_softmax
/// gives g − softmax(x) ⊙ Σ g (sums along dim; softmax(x) recomputed in fp32 from the input
/// and each row's log Σ exp), each one pass per row that rounds once
/// (kt/tensor/impl/softmax_impl.hpp).
///
///     kt::Var<float> z(kt::randn<float>({32, 10}, 0), true);
///     auto logp = kt::log_softmax(z, -1);

#include "kt/core/impl/public_begin.hpp"

#include "kt/autograd/impl/autocast_dispatch.hpp"
#include "kt/autograd/impl/record.hpp"
#include "kt/autograd/var.hpp"
#include "kt/tensor/impl/softmax_impl.hpp"
#include "kt/tensor/softmax.hpp"

#include <vector>

namespace kt {

template <class T, class D>
Var<T, D> softmax(const Var<T, D>& x, int dim) {
  impl::require_defined("kt::softmax", {x});
  if (Var<T, D> result; impl::autocast_dispatch<impl::op_tag::Softmax, T, D>(result, [&](const auto& t) { return softmax(t, dim); }, x))
    return result;
  Tensor<T, D> y = softmax(x.data(), dim);
  return impl::record("kt::softmax", y, {x}, [y, dim](const Tensor<T, D>& g, const impl::Needs&) {
    return std::vector<Tensor<T, D>>{impl::softmax_backward(D(), y, g, dim)};
  });
}

template <class T, class D>
Var<T, D> log_softmax(const Var<T, D>& x, int dim) {
  impl::require_defined("kt::log_softmax", {x});
  if (Var<T, D> result; impl::autocast_dispatch<impl::op_tag::Softmax, T, D>(result, [&](const auto& t) { return log_softmax(t, dim); }, x))
    return result;
  Tensor<compute_t<T>, D> shift;  // per row: max + log Σ exp, for the backward
  Tensor<T, D> y = impl::softmax_forward<true>(D(), "kt::log_softmax", x.data(), dim, &shift);
  return impl::record("kt::log_softmax", y, {x}, [x = x.data(), shift, dim](const Tensor<T, D>& g, const impl::Needs&) {
    return std::vector<Tensor<T, D>>{impl::log_softmax_backward(D(), x, shift, g, dim)};
  });
}

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
