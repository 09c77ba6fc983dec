#pragma once
/// \file kt/autograd/reduce.hpp
/// Differentiable reductions of a kt::Var: `sum` and `mean` over all elements or along a
/// dimension, and `max` / `min` whose gradient goes to the position `argmax` / `argmin`
/// picks (the first extreme), as PyTorch's `max(dim)` does.
///
///     kt::Var<float> x(kt::randn<float>({32, 10}, 0), true);
///     auto loss = kt::mean(kt::sum(x * x, /*dim=*/1));
///     loss.backward();                                   // x.grad() == 2 x / 32

#include "kt/core/impl/public_begin.hpp"

#include "kt/autograd/impl/autocast_dispatch.hpp"
#include "kt/autograd/impl/record.hpp"
#include "kt/autograd/impl/reduce_grad.hpp"
#include "kt/autograd/var.hpp"
#include "kt/tensor/elementwise.hpp"
#include "kt/tensor/factories.hpp"
#include "kt/tensor/impl/broadcast_grad.hpp"
#include "kt/tensor/reduce.hpp"

#include <cstdint>
#include <vector>

namespace kt {


/// Sum of all elements: a rank-0 Var.
template <class T, class D>
Var<T, D> sum(const Var<T, D>& a) {
  impl::require_defined("kt::sum", {a});
  if (Var<T, D> result; impl::autocast_dispatch<impl::op_tag::Reduction, T, D>(result, [&](const auto& t) { return sum(t); }, a))
    return result;
  return impl::record("kt::sum", sum(a.data()), {a}, [shape = a.shape()](const Tensor<T, D>& g, const impl::Needs&) {
    return std::vector<Tensor<T, D>>{impl::expand_to(g, shape)};
  });
}

/// Sum along `dim` (dropped unless keepdim).
template <class T, class D>
Var<T, D> sum(const Var<T, D>& a, int dim, bool keepdim = false) {
  impl::require_defined("kt::sum", {a});
  if (Var<T, D> result; impl::autocast_dispatch<impl::op_tag::Reduction, T, D>(result, [&](const auto& t) { return sum(t, dim, keepdim); }, a))
    return result;
  return impl::record("kt::sum", sum(a.data(), dim, keepdim), {a},
                      [shape = a.shape(), dim](const Tensor<T, D>& g, const impl::Needs&) {
                        const Shape kept = impl::keepdim_shape(shape, dim);
                        return std::vector<Tensor<T, D>>{impl::expand_to(g.reshape(kept.dims()), shape)};
                      });
}

/// Mean of all elements: a rank-0 Var.
template <class T, class D>
Var<T, D> mean(const Var<T, D>& a) {
  impl::require_defined("kt::mean", {a});
  if (Var<T, D> result; impl::autocast_dispatch<impl::op_tag::Reduction, T, D>(result, [&](const auto& t) { return mean(t); }, a))
    return result;
  return impl::record("kt::mean", mean(a.data()), {a}, [shape = a.shape()](const Tensor<T, D>& g, const impl::Needs&) {
    return std::vector<Tensor<T, D>>{impl::expand_to(g * (1.0 / static_cast<double>(shape.numel())), shape)};
  });
}

/// Mean along `dim` (dropped unless keepdim).
template <class T, class D>
Var<T, D> mean(const Var<T, D>& a, int dim, bool keepdim = false) {
  impl::require_defined("kt::mean", {a});
  if (Var<T, D> result; impl::autocast_dispatch<impl::op_tag::Reduction, T, D>(result, [&](const auto& t) { return mean(t, dim, keepdim); }, a))
    return result;
  return impl::record("kt::mean", mean(a.data(), dim, keepdim), {a},
                      [shape = a.shape(), dim](const Tensor<T, D>& g, const impl::Needs&) {
                        const Shape kept = impl::keepdim_shape(shape, dim);
                        const double n = static_cast<double>(shape[dim]);
                        return std::vector<Tensor<T, D>>{impl::expand_to(g.reshape(kept.dims()) * (1.0 / n), shape)};
                      });
}

/// The largest element; its gradient goes to the first largest position.
template <class T, class D>
Var<T, D> max(const Var<T, D>& a) {
  impl::require_defined("kt::max", {a});
  if (Var<T, D> result; impl::autocast_dispatch<impl::op_tag::Reduction, T, D>(result, [&](const auto& t) { return max(t); }, a))
    return result;
  return impl::extreme_all("kt::max", a, max(a.data()), argmax(a.data()));
}

/// The smallest element; its gradient goes to the first smallest position.
template <class T, class D>
Var<T, D> min(const Var<T, D>& a) {
  impl::require_defined("kt::min", {a});
  if (Var<T, D> result; impl::autocast_dispatch<impl::op_tag::Reduction, T, D>(result, [&](const auto& t) { return min(t); }, a))
    return result;
  return impl::extreme_all("kt::min", a, min(a.data()), argmin(a.data()));
}

/// The largest values along dim (the values of `torch.max(x, dim)`).
template <class T, class D>
Var<T, D> max(const Var<T, D>& a, int dim, bool keepdim = false) {
  impl::require_defined("kt::max", {a});
  if (Var<T, D> result; impl::autocast_dispatch<impl::op_tag::Reduction, T, D>(result, [&](const auto& t) { return max(t, dim, keepdim); }, a))
    return result;
  return impl::extreme_dim("kt::max", a, dim, keepdim, max(a.data(), dim, keepdim), argmax(a.data(), dim, keepdim));
}

/// The smallest values along dim.
template <class T, class D>
Var<T, D> min(const Var<T, D>& a, int dim, bool keepdim = false) {
  impl::require_defined("kt::min", {a});
  if (Var<T, D> result; impl::autocast_dispatch<impl::op_tag::Reduction, T, D>(result, [&](const auto& t) { return min(t, dim, keepdim); }, a))
    return result;
  return impl::extreme_dim("kt::min", a, dim, keepdim, min(a.data(), dim, keepdim), argmin(a.data(), dim, keepdim));
}

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
