#pragma once
// softmax and log_softmax along one dimension, forward and backward, one pass per row. A
// tensor of shape (outer, n, inner) along its middle dimension is outer * inner rows of n
// elements, `inner` apart. Each row is one thread's: its max, its sums (in sum_acc_t: fp32 for
// 16-bit dtypes, double for float) and every element computed in compute_t, in index order,
// and each result rounded to T once. So 16-bit tensors accumulate in fp32, and results are
// bit-identical whatever the thread count (the order of every operation is fixed by the shape).
//
//   softmax:      y = exp(x − m) / s,          s = Σ exp(x − m),  m = max x
//   log_softmax:  y = x − m − log s
//   backward:     softmax dx = y (g − Σ g y);  log_softmax dx = g − exp(x − m − log s) Σ g
//
// m and s come from row_exp_sum, which cross-entropy uses too: cross_entropy(x, t) and
// nll_loss(log_softmax(x), t) are bit-identical. On host devices a float exp is exp_inline,
// whose loops vectorise (kt/core/impl/exp_inline.hpp); elsewhere it is the device's exp.

#include "kt/core/impl/internal.hpp"

#include "kt/core/device.hpp"
#include "kt/core/dtype.hpp"
#include "kt/core/impl/exp_inline.hpp"
#include "kt/core/impl/kokkos_compat.hpp"
#include "kt/core/impl/parallel_for.hpp"
#include "kt/core/impl/sum_acc.hpp"
#include "kt/tensor/impl/reduce_impl.hpp"
#include "kt/tensor/tensor.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace kt::impl {

/// exp in compute_t for the row kernels of device D: exp_inline for float on host devices,
/// the device's own exp otherwise.
template <class D, class C>
KOKKOS_INLINE_FUNCTION C row_exp(C v) {
  if constexpr (is_host_accessible_v<D> && std::is_same_v<C, float>) return exp_inline(v);
  else return KT_KOKKOS_MATH::exp(v);
}

/// Rows of n elements `inner` apart; row r starts at (r / inner) * n * inner + r % inner.
struct SoftmaxRows {
  std::int64_t rows = 0, n = 0, inner = 1;
  KOKKOS_INLINE_FUNCTION std::int64_t start(std::int64_t r) const { return (r / inner) * n * inner + r % inner; }
};

/// A row's max m (compute_t) and s = Σ exp(x − m) (sum_acc_t), in index order.
template <class C, class S>
struct RowExpSum {
  C max;
  S sum;
  /// log Σ exp(x) = m + log s.
  KOKKOS_INLINE_FUNCTION C logsumexp() const { return max + static_cast<C>(KT_KOKKOS_MATH::log(sum)); }
};

/// m and Σ exp(x − m) of the n elements x(base + i * stride) on device D: the one log-sum-exp
/// of softmax, log_softmax and cross-entropy. Host devices take the exps 16 at a time into a
/// buffer and then add them in index order, so that the exps' loop vectorises (a loop that
/// also adds in a fixed order cannot); a GPU thread adds each as it comes, in the same order.
template <class T, class D, class View>
KOKKOS_INLINE_FUNCTION RowExpSum<compute_t<T>, sum_acc_t<T>> row_exp_sum(const View& x, std::int64_t base,
                                                                         std::int64_t n, std::int64_t stride) {
  using C = compute_t<T>;
  using S = sum_acc_t<T>;
  C m = static_cast<C>(x(base));
  for (std::int64_t i = 1; i < n; ++i) {
    const C v = static_cast<C>(x(base + i * stride));
    m = v > m ? v : m;
  }
  S s = 0;
  if constexpr (is_host_accessible_v<D>) {
    constexpr int W = 16;
    C e[W];
    for (std::int64_t i0 = 0; i0 < n; i0 += W) {
      const int w = static_cast<int>(n - i0 < W ? n - i0 : W);
      for (int j = 0; j < w; ++j) e[j] = row_exp<D>(static_cast<C>(x(base + (i0 + j) * stride)) - m);
      for (int j = 0; j < w; ++j) s += static_cast<S>(e[j]);
    }
  } else {
    for (std::int64_t i = 0; i < n; ++i) s += static_cast<S>(row_exp<D>(static_cast<C>(x(base + i * stride)) - m));
  }
  return {m, s};
}

/// row_exp_sum of B rows at once on a host device: row r's element i at
/// x(base + r * row_stride + i * stride), its max into m[r] and its sum into s[r]. The same
/// operations in the same order per row, so the same bits, with the rows in the lanes of the
/// vector registers: a row of a few classes is too short to vectorise along.
template <int B, class T, class D, class View>
KOKKOS_INLINE_FUNCTION void row_block_exp_sum(const View& x, std::int64_t base, std::int64_t row_stride,
                                              std::int64_t n, std::int64_t stride, compute_t<T> (&m)[B],
                                              sum_acc_t<T> (&s)[B]) {
  using C = compute_t<T>;
  using S = sum_acc_t<T>;
  for (int r = 0; r < B; ++r) m[r] = static_cast<C>(x(base + r * row_stride));
  for (std::int64_t i = 1; i < n; ++i)
    for (int r = 0; r < B; ++r) {
      const C v = static_cast<C>(x(base + r * row_stride + i * stride));
      m[r] = v > m[r] ? v : m[r];
    }
  for (int r = 0; r < B; ++r) s[r] = 0;
  for (std::int64_t i = 0; i < n; ++i)
    for (int r = 0; r < B; ++r) s[r] += static_cast<S>(row_exp<D>(static_cast<C>(x(base + r * row_stride + i * stride)) - m[r]));
}

inline SoftmaxRows softmax_rows(const char* op, const Shape& shape, int dim) {
  const int d = normalize_reduce_dim(op, shape, dim);  // a rank-0 tensor is one row of one
  SoftmaxRows rows;
  rows.n = shape.rank() > 0 ? shape[d] : 1;
  rows.inner = shape.rank() > 0 ? shape.stride(d) : 1;
  rows.rows = rows.n > 0 ? shape.numel() / rows.n : 0;
  return rows;
}

/// softmax (Log = false) or log_softmax (Log = true) of x along dim. log_softmax also gives
/// each row's shift m + log s (`shift`, when not null), from which its backward recomputes the
/// probabilities exp(x − shift) in compute_t: from the rounded 16-bit output they would be off
/// by up to exp(ulp/2) — 3% for a bfloat16 log-probability near −8.
template <bool Log, class T, class D>
Tensor<T, D> softmax_forward(const D& exec, const char* op, const Tensor<T, D>& x, int dim,
                             Tensor<compute_t<T>, D>* shift = nullptr) {
  using C = compute_t<T>;
  using S = sum_acc_t<T>;
  const SoftmaxRows rows = softmax_rows(op, x.shape(), dim);
  Tensor<T, D> y(x.shape(), exec);
  if (shift != nullptr) *shift = Tensor<C, D>({rows.rows}, exec);
  const auto in = x.view();
  const auto out = y.view();
  const auto shifts = shift != nullptr ? shift->view() : typename Tensor<C, D>::view_type();
  const bool keep_shift = shift != nullptr;
  parallel_for(
      exec, op, rows.rows,
      KOKKOS_LAMBDA(std::int64_t r) {
        const std::int64_t base = rows.start(r), stride = rows.inner;
        const auto row = row_exp_sum<T, D>(in, base, rows.n, stride);
        const C m = row.max;
        const S s = row.sum;
        if (Log) {  // not `if constexpr`: nvcc's lambdas cannot first capture inside one
          const C row_shift = row.logsumexp();
          if (keep_shift) shifts(r) = row_shift;
          for (std::int64_t i = 0; i < rows.n; ++i)
            out(base + i * stride) = static_cast<T>(static_cast<C>(in(base + i * stride)) - row_shift);
        } else {
          const C inv = static_cast<C>(S(1) / s);
          for (std::int64_t i = 0; i < rows.n; ++i)
            out(base + i * stride) = static_cast<T>(row_exp<D>(static_cast<C>(in(base + i * stride)) - m) * inv);
        }
      },
      x.numel());
  return y;
}

/// The gradient of softmax along dim from its output y and the output's gradient g:
/// dx = y (g − Σ g y).
template <class T, class D>
Tensor<T, D> softmax_backward(const D& exec, const Tensor<T, D>& y, const Tensor<T, D>& g, int dim) {
  using C = compute_t<T>;
  using S = sum_acc_t<T>;
  const SoftmaxRows rows = softmax_rows("kt::softmax backward", y.shape(), dim);
  Tensor<T, D> dx(y.shape(), exec);
  const auto yv = y.view();
  const auto gv = g.view();
  const auto out = dx.view();
  parallel_for(
      exec, "kt::softmax backward", rows.rows,
      KOKKOS_LAMBDA(std::int64_t r) {
        const std::int64_t base = rows.start(r), stride = rows.inner;
        S s = 0;
        for (std::int64_t i = 0; i < rows.n; ++i)
          s += static_cast<S>(static_cast<C>(gv(base + i * stride))) * static_cast<S>(static_cast<C>(yv(base + i * stride)));
        const C sum = static_cast<C>(s);
        for (std::int64_t i = 0; i < rows.n; ++i) {
          const std::int64_t e = base + i * stride;
          out(e) = static_cast<T>(static_cast<C>(yv(e)) * (static_cast<C>(gv(e)) - sum));
        }
      },
      y.numel());
  return dx;
}

/// The gradient of log_softmax along dim from its input x, the rows' shifts (softmax_forward)
/// and the output's gradient g: dx = g − exp(x − shift) Σ g.
template <class T, class D>
Tensor<T, D> log_softmax_backward(const D& exec, const Tensor<T, D>& x, const Tensor<compute_t<T>, D>& shift,
                                  const Tensor<T, D>& g, int dim) {
  using C = compute_t<T>;
  using S = sum_acc_t<T>;
  const SoftmaxRows rows = softmax_rows("kt::log_softmax backward", x.shape(), dim);
  Tensor<T, D> dx(x.shape(), exec);
  const auto xv = x.view();
  const auto sv = shift.view();
  const auto gv = g.view();
  const auto out = dx.view();
  parallel_for(
      exec, "kt::log_softmax backward", rows.rows,
      KOKKOS_LAMBDA(std::int64_t r) {
        const std::int64_t base = rows.start(r), stride = rows.inner;
        S s = 0;
        for (std::int64_t i = 0; i < rows.n; ++i) s += static_cast<S>(static_cast<C>(gv(base + i * stride)));
        const C sum = static_cast<C>(s), row_shift = sv(r);
        for (std::int64_t i = 0; i < rows.n; ++i) {
          const std::int64_t e = base + i * stride;
          out(e) = static_cast<T>(static_cast<C>(gv(e)) - row_exp<D>(static_cast<C>(xv(e)) - row_shift) * sum);
        }
      },
      x.numel());
  return dx;
}

}  // namespace kt::impl
