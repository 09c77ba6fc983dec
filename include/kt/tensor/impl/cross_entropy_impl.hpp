#pragma once
// The fused cross-entropy kernels: one pass per row computes log-sum-exp (row_exp_sum, as
// log_softmax does, so the losses equal nll_loss(log_softmax) bit for bit) and the row's loss
// (with label smoothing); kt/tensor/impl/class_loss_reduce.hpp reduces the rows on the device;
// the backward pass writes softmax − target distribution, scaled by the upstream gradient and
// the reduction's factor, in one more pass. Nothing of size (N, C) is kept but the logits.

#include "kt/core/impl/internal.hpp"

#include "kt/core/device.hpp"
#include "kt/core/impl/compiled.hpp"
#include "kt/core/impl/parallel_for.hpp"
#include "kt/core/impl/kokkos_compat.hpp"
#include "kt/tensor/impl/class_loss_reduce.hpp"
#include "kt/tensor/impl/softmax_impl.hpp"
#include "kt/tensor/tensor.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kt::impl {

/// The forward pass's rows: loss(i) = lse_i − (1 − ε) x[i, t_i] − ε/C Σ_j x[i, j], 0 where t_i
/// is not counted (ignored or outside [0, C): kt/tensor/impl/class_loss_reduce.hpp reports
/// those); lse(i) kept for backward. row(i) takes one row, as a GPU thread does; block(i0)
/// takes B rows at once on host devices, the rows in vector lanes, with the same operations in
/// the same order per row, so the same bits.
template <class T, class D>
struct CrossEntropyRows {
  using C = compute_t<T>;
  using S = sum_acc_t<T>;
  static constexpr int B = 16;
  typename Tensor<T, D>::view_type x, loss;
  typename Tensor<std::int64_t, D>::view_type target;
  typename Tensor<C, D>::view_type lse;
  std::int64_t classes, ignore_index;
  C keep, eps;

  /// Row i's loss and lse from its max m, s = Σ exp(x − m) and Σ x (`total`, read only with
  /// label smoothing: without it a −inf logit, a class masked out, would make 0 · total NaN).
  KOKKOS_INLINE_FUNCTION void finish(std::int64_t i, C m, S s, C total) const {
    const C log_sum = RowExpSum<C, S>{m, s}.logsumexp();
    lse(i) = log_sum;
    const std::int64_t c = target(i);
    if (!counted_class(c, classes, ignore_index)) {
      loss(i) = T(0);
      return;
    }
    const C picked = static_cast<C>(x(i * classes + c));
    const C smoothing = eps == C(0) ? C(0) : eps * total / C(classes);
    loss(i) = static_cast<T>(log_sum - keep * picked - smoothing);
  }
  KOKKOS_INLINE_FUNCTION void row(std::int64_t i) const {
    const std::int64_t base = i * classes;
    const auto e = row_exp_sum<T, D>(x, base, classes, 1);
    C total = 0;
    if (eps != C(0))
      for (std::int64_t j = 0; j < classes; ++j) total += static_cast<C>(x(base + j));
    finish(i, e.max, e.sum, total);
  }
  KOKKOS_INLINE_FUNCTION void block(std::int64_t i0) const {
    C m[B], total[B];
    S s[B];
    const std::int64_t base = i0 * classes;
    row_block_exp_sum<B, T, D>(x, base, classes, classes, 1, m, s);
    for (int r = 0; r < B; ++r) total[r] = 0;
    if (eps != C(0))
      for (std::int64_t j = 0; j < classes; ++j)
        for (int r = 0; r < B; ++r) total[r] += static_cast<C>(x(base + r * classes + j));
    for (int r = 0; r < B; ++r) finish(i0 + r, m[r], s[r], total[r]);
  }
};

/// f.row(i) for each of n rows on device D. Host devices take whole blocks of Rows::B rows
/// through f.block(i0), then the last rows one at a time; `work` is the elements of the pass.
template <class D, class Rows>
void for_each_row(const char* label, std::int64_t n, const Rows& f, std::int64_t work) {
  if constexpr (is_host_accessible_v<D>) {
    const std::int64_t blocks = n / Rows::B, rest = n - blocks * Rows::B;
    parallel_for(D(), label, blocks + rest, KOKKOS_LAMBDA(std::int64_t b) {
                           if (b < blocks) f.block(b * Rows::B);
                           else f.row(blocks * Rows::B + (b - blocks));
                         },
                         work);
  } else {
    parallel_for(D(), label, n, KOKKOS_LAMBDA(std::int64_t i) { f.row(i); }, work);
  }
}

template <class T, class D>
void cross_entropy_forward(const Tensor<T, D>& logits, const Tensor<std::int64_t, D>& target, double smoothing,
                           std::int64_t ignore_index, const Tensor<T, D>& loss, const Tensor<compute_t<T>, D>& lse) {
  using Rows = CrossEntropyRows<T, D>;
  using C = typename Rows::C;
  const Rows f{logits.view(), loss.view(), target.view(), lse.view(), logits.size(1), ignore_index,
               C(1) - static_cast<C>(smoothing), static_cast<C>(smoothing)};
  for_each_row<D>("kt::cross_entropy::forward", target.numel(), f, logits.numel());
}

/// The backward pass's rows: dx[i, j] = g_i · factor · (softmax[i, j] − (1 − ε)[j = t_i] − ε/C),
/// 0 for rows whose target is not counted; g is rank 0 (mean and sum reductions) or per row
/// (none); factor (rank 0, on the device) is the reduction's (1 / count for the mean), absent
/// for none. row(i) and block(i0) as in CrossEntropyRows.
template <class T, class D>
struct CrossEntropyGradRows {
  using C = compute_t<T>;
  static constexpr int B = 16;
  typename Tensor<T, D>::view_type grad, x, dx;
  typename Tensor<std::int64_t, D>::view_type target;
  typename Tensor<C, D>::view_type lse, factor;
  std::int64_t classes, ignore_index;
  C keep, spread;
  bool per_row, scaled;

  /// Row i's g_i · factor, 0 when its target is not counted.
  KOKKOS_INLINE_FUNCTION C scale(std::int64_t i) const {
    return !counted_class(target(i), classes, ignore_index)
               ? C(0)
               : (scaled ? factor(0) : C(1)) * static_cast<C>(grad(per_row ? i : 0));
  }
  KOKKOS_INLINE_FUNCTION T element(std::int64_t e, std::int64_t j, C gi, C shift, std::int64_t c) const {
    const C p = row_exp<D>(static_cast<C>(x(e)) - shift);
    return static_cast<T>(gi * (p - spread - (j == c ? keep : C(0))));
  }
  KOKKOS_INLINE_FUNCTION void row(std::int64_t i) const {
    const C gi = scale(i), shift = lse(i);
    const std::int64_t c = target(i), base = i * classes;
    for (std::int64_t j = 0; j < classes; ++j) dx(base + j) = element(base + j, j, gi, shift, c);
  }
  KOKKOS_INLINE_FUNCTION void block(std::int64_t i0) const {
    C gi[B], shift[B];
    std::int64_t c[B];
    for (int r = 0; r < B; ++r) {
      gi[r] = scale(i0 + r);
      shift[r] = lse(i0 + r);
      c[r] = target(i0 + r);
    }
    const std::int64_t base = i0 * classes;
    for (std::int64_t j = 0; j < classes; ++j)
      for (int r = 0; r < B; ++r) {
        const std::int64_t e = base + r * classes + j;
        dx(e) = element(e, j, gi[r], shift[r], c[r]);
      }
  }
};

template <class T, class D>
Tensor<T, D> cross_entropy_backward(const Tensor<T, D>& grad, const Tensor<T, D>& logits,
                                    const Tensor<std::int64_t, D>& target, const Tensor<compute_t<T>, D>& lse,
                                    double smoothing, std::int64_t ignore_index, const Tensor<compute_t<T>, D>& factor) {
  using Rows = CrossEntropyGradRows<T, D>;
  using C = typename Rows::C;
  Tensor<T, D> dx(logits.shape(), D());
  const C eps = static_cast<C>(smoothing);
  const std::int64_t classes = logits.size(1);
  const Rows f{grad.view(),
               logits.view(),
               dx.view(),
               target.view(),
               lse.view(),
               factor.defined() ? factor.view() : typename Tensor<C, D>::view_type(),
               classes,
               ignore_index,
               C(1) - eps,
               eps / C(classes),
               grad.rank() == 1,
               factor.defined()};
  for_each_row<D>("kt::cross_entropy::backward", target.numel(), f, logits.numel());
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
