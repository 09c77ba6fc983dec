#pragma once
// The fused cross-entropy kernels: one pass per row computes log-sum-exp (row_exp_sum, as
// log_softmax does, so the losses equal nll_loss(log_softmax) bit for bit) and the row's loss
// (with label smoothing); kt/tensor/impl/class_loss_reduce.hpp reduces the rows on the device;
// the backward pass writes softmax − target distribution, scaled by the upstream gradient and
// the reduction's factor, in one more pass. Nothing of size (N, C) is kept but the logits.

#include "kt/core/impl/internal.hpp"

#include "kt/core/impl/compiled.hpp"
#include "kt/core/impl/parallel_for.hpp"
#include "kt/core/impl/kokkos_compat.hpp"
#include "kt/tensor/impl/class_loss_reduce.hpp"
#include "kt/tensor/impl/softmax_impl.hpp"
#include "kt/tensor/tensor.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kt::impl {

/// loss(i) = lse_i − (1 − ε) x[i, t_i] − ε/C Σ_j x[i, j], 0 where t_i is not counted (ignored or
/// outside [0, C): kt/tensor/impl/class_loss_reduce.hpp reports those); lse(i) kept for backward.
template <class T, class D>
void cross_entropy_forward(const Tensor<T, D>& logits, const Tensor<std::int64_t, D>& target, double smoothing,
                           std::int64_t ignore_index, const Tensor<T, D>& loss, const Tensor<compute_t<T>, D>& lse) {
  using C = compute_t<T>;
  const std::int64_t classes = logits.size(1);
  const auto x = logits.view();
  const auto t = target.view();
  const auto l = loss.view();
  const auto s = lse.view();
  const C eps = static_cast<C>(smoothing), keep = C(1) - eps;
  parallel_for(D(), "kt::cross_entropy::forward", target.numel(), KOKKOS_LAMBDA(std::int64_t i) {
                         const std::size_t row = i * static_cast<std::size_t>(classes);
                         const C log_sum = row_exp_sum<T>(x, static_cast<std::int64_t>(row), classes, 1).logsumexp();
                         C total = 0;
                         for (std::int64_t j = 0; j < classes; ++j) total += static_cast<C>(x(row + j));
                         s(i) = log_sum;
                         const std::int64_t c = t(i);
                         if (!counted_class(c, classes, ignore_index)) {
                           l(i) = T(0);
                           return;
                         }
                         const C picked = static_cast<C>(x(row + static_cast<std::size_t>(c)));
                         l(i) = static_cast<T>(log_sum - keep * picked - eps * total / C(classes));
                       },
                       logits.numel());
}

/// dx[i, j] = g_i · factor · (softmax[i, j] − (1 − ε)[j = t_i] − ε/C), 0 for rows whose target
/// is not counted; g is rank 0 (mean and sum reductions) or per row (none); factor (rank 0, on
/// the device) is the reduction's (1 / count for the mean), undefined for none.
template <class T, class D>
Tensor<T, D> cross_entropy_backward(const Tensor<T, D>& grad, const Tensor<T, D>& logits,
                                    const Tensor<std::int64_t, D>& target, const Tensor<compute_t<T>, D>& lse,
                                    double smoothing, std::int64_t ignore_index, const Tensor<compute_t<T>, D>& factor) {
  using C = compute_t<T>;
  Tensor<T, D> dx(logits.shape(), D());
  const std::int64_t classes = logits.size(1);
  const bool per_row = grad.rank() == 1;
  const auto g = grad.view();
  const auto x = logits.view();
  const auto t = target.view();
  const auto s = lse.view();
  const auto out = dx.view();
  const C eps = static_cast<C>(smoothing), keep = C(1) - eps;
  const C spread = eps / C(classes);
  const bool scaled = factor.defined();
  const auto f = scaled ? factor.view() : typename Tensor<compute_t<T>, D>::view_type();
  parallel_for(D(), "kt::cross_entropy::backward", target.numel(), KOKKOS_LAMBDA(std::int64_t i) {
                         const std::size_t row = i * static_cast<std::size_t>(classes);
                         const std::int64_t c = t(i);
                         const C gi = !counted_class(c, classes, ignore_index)
                                          ? C(0)
                                          : (scaled ? f(0) : C(1)) * static_cast<C>(g(per_row ? i : 0));
                         for (std::int64_t j = 0; j < classes; ++j) {
                           const C p = KT_KOKKOS_MATH::exp(static_cast<C>(x(row + j)) - s(i));
                           out(row + j) = static_cast<T>(gi * (p - spread - (j == c ? keep : C(0))));
                         }
                       },
                       logits.numel());
  return dx;
}

}  // namespace kt::impl

// kt_compiled (kt/core/impl/compiled.hpp): the cross-entropy of floating logits.
#define KT_ETI_CROSS_ENTROPY_ONE(T, D, KW)                                                                   \
  KW void kt::impl::cross_entropy_forward<T, D>(const kt::Tensor<T, D>&, const kt::Tensor<std::int64_t, D>&, \
                                                double, std::int64_t, const kt::Tensor<T, D>&,               \
                                                const kt::Tensor<kt::compute_t<T>, D>&);                     \
  KW kt::Tensor<T, D> kt::impl::cross_entropy_backward<T, D>(                                                \
      const kt::Tensor<T, D>&, const kt::Tensor<T, D>&, const kt::Tensor<std::int64_t, D>&,                  \
      const kt::Tensor<kt::compute_t<T>, D>&, double, std::int64_t, const kt::Tensor<kt::compute_t<T>, D>&);
#define KT_ETI_CROSS_ENTROPY(KW) KT_ETI_EACH_FLOAT_DEVICE(KT_ETI_CROSS_ENTROPY_ONE, KW)
#if defined(KT_COMPILED) && !defined(KT_COMPILED_DEFINES_LOSS)
KT_ETI_CROSS_ENTROPY(extern template)
#endif
