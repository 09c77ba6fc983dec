#pragma once
// The kernels of kt::nll_loss (kt/functional/nll_loss.hpp): one pass picks −x[i, t_i] per row,
// the backward pass writes −g_i at those positions of a zero gradient.

#include "kt/core/impl/internal.hpp"

#include "kt/core/impl/parallel_for.hpp"
#include "kt/tensor/factories.hpp"
#include "kt/tensor/impl/class_loss_reduce.hpp"
#include "kt/tensor/tensor.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kt::impl {

/// loss(i) = −x[i, t_i], 0 where t_i is not counted (ignored, or outside [0, C): reported by
/// kt/tensor/impl/class_loss_reduce.hpp).
template <class T, class D>
void nll_loss_forward(const Tensor<T, D>& log_probs, const Tensor<std::int64_t, D>& target,
                      std::int64_t ignore_index, const Tensor<T, D>& loss) {
  const std::int64_t classes = log_probs.size(1);
  const auto x = log_probs.view();
  const auto t = target.view();
  const auto l = loss.view();
  parallel_for(D(), "kt::nll_loss::forward", target.numel(), KOKKOS_LAMBDA(std::int64_t i) {
    const std::int64_t c = t(i);
    l(i) = counted_class(c, classes, ignore_index) ? static_cast<T>(-x(i * classes + c)) : T(0);
  });
}

/// dx = 0 except dx[i, t_i] = −factor · g_i for counted targets (g rank 0 for mean/sum, per row
/// for none; factor on the device: 1 / count for the mean, undefined for none).
template <class T, class D>
Tensor<T, D> nll_loss_backward(const Tensor<T, D>& grad, const Shape& shape, const Tensor<std::int64_t, D>& target,
                               std::int64_t ignore_index, const Tensor<compute_t<T>, D>& factor) {
  using C = compute_t<T>;
  Tensor<T, D> dx = zeros<T>(D(), shape);
  const auto g = grad.view();
  const auto t = target.view();
  const auto out = dx.view();
  const bool per_row = grad.rank() == 1;
  const std::int64_t classes = shape[1];
  const bool scaled = factor.defined();
  const auto f = scaled ? factor.view() : typename Tensor<C, D>::view_type();
  parallel_for(D(), "kt::nll_loss::backward", target.numel(), KOKKOS_LAMBDA(std::int64_t i) {
    const std::int64_t c = t(i);
    if (counted_class(c, classes, ignore_index))
      out(i * classes + c) = static_cast<T>(-(scaled ? f(0) : C(1)) * static_cast<C>(g(per_row ? i : 0)));
  });
  return dx;
}

}  // namespace kt::impl
