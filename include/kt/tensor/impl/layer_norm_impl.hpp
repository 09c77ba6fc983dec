#pragma once
// The kernels of kt::layer_norm over rows of n elements (the trailing normalized_shape). Each
// row's statistics are one thread's, in index order, accumulated in sum_acc_t (fp32 for 16-bit
// dtypes, double for float) — so 16-bit tensors accumulate in fp32 and results do not depend
// on the thread count — and every output is computed in compute_t and rounded once.
//
//   forward:   μ = mean x,  σ⁻¹ = 1 / sqrt(mean (x − μ)² + eps),  x̂ = (x − μ) σ⁻¹,  y = x̂ w + b
//   backward:  ĝ = g w;  dx = σ⁻¹ (ĝ − mean ĝ − x̂ mean(ĝ x̂));  dw = Σ_rows g x̂;  db = Σ_rows g

#include "kt/core/impl/internal.hpp"

#include "kt/core/dtype.hpp"
#include "kt/core/impl/kokkos_compat.hpp"
#include "kt/core/impl/parallel_for.hpp"
#include "kt/core/impl/sum_acc.hpp"
#include "kt/tensor/tensor.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kt::impl {

/// What the forward pass keeps for backward besides x: each row's mean and 1/σ (compute_t).
template <class T, class D>
struct LayerNormForward {
  Tensor<T, D> y;
  Tensor<compute_t<T>, D> mean, rstd;
};

/// x: (rows, n); weight, bias: (n) or undefined.
template <class T, class D>
LayerNormForward<T, D> layer_norm_forward(const Tensor<T, D>& x, const Tensor<T, D>& weight, const Tensor<T, D>& bias,
                                          double eps) {
  using C = compute_t<T>;
  using S = sum_acc_t<T>;
  const D exec;
  const std::int64_t rows = x.size(0), n = x.size(1);
  LayerNormForward<T, D> out{Tensor<T, D>(x.shape(), exec), Tensor<C, D>({rows}, exec), Tensor<C, D>({rows}, exec)};
  const auto xv = x.view();
  const auto yv = out.y.view();
  const auto mv = out.mean.view();
  const auto rv = out.rstd.view();
  const bool has_w = weight.defined(), has_b = bias.defined();
  const auto wv = has_w ? weight.view() : typename Tensor<T, D>::view_type();
  const auto bv = has_b ? bias.view() : typename Tensor<T, D>::view_type();
  const S e = static_cast<S>(eps);
  parallel_for(
      exec, "kt::layer_norm", rows,
      KOKKOS_LAMBDA(std::int64_t r) {
        const std::int64_t base = r * n;
        S sum = 0;
        for (std::int64_t j = 0; j < n; ++j) sum += static_cast<S>(static_cast<C>(xv(base + j)));
        const S mean = sum / static_cast<S>(n);
        S squares = 0;
        for (std::int64_t j = 0; j < n; ++j) {
          const S d = static_cast<S>(static_cast<C>(xv(base + j))) - mean;
          squares += d * d;
        }
        const S rstd = S(1) / KT_KOKKOS_MATH::sqrt(squares / static_cast<S>(n) + e);
        mv(r) = static_cast<C>(mean);
        rv(r) = static_cast<C>(rstd);
        for (std::int64_t j = 0; j < n; ++j) {
          C v = static_cast<C>((static_cast<S>(static_cast<C>(xv(base + j))) - mean) * rstd);
          if (has_w) v *= static_cast<C>(wv(j));
          if (has_b) v += static_cast<C>(bv(j));
          yv(base + j) = static_cast<T>(v);
        }
      },
      x.numel());
  return out;
}

/// The gradients of layer_norm: dx always, dw and db when the affine parameters exist and
/// `need_params`.
template <class T, class D>
struct LayerNormGrads {
  Tensor<T, D> dx, dw, db;
};

template <class T, class D>
LayerNormGrads<T, D> layer_norm_backward(const Tensor<T, D>& g, const Tensor<T, D>& x, const Tensor<T, D>& weight,
                                         const LayerNormForward<T, D>& fwd, bool has_bias, bool need_params) {
  using C = compute_t<T>;
  using S = sum_acc_t<T>;
  const D exec;
  const std::int64_t rows = x.size(0), n = x.size(1);
  LayerNormGrads<T, D> grads{Tensor<T, D>(x.shape(), exec), Tensor<T, D>(), Tensor<T, D>()};
  const auto gv = g.view();
  const auto xv = x.view();
  const auto mv = fwd.mean.view();
  const auto rv = fwd.rstd.view();
  const bool has_w = weight.defined();
  const auto wv = has_w ? weight.view() : typename Tensor<T, D>::view_type();
  const auto dxv = grads.dx.view();
  parallel_for(
      exec, "kt::layer_norm backward (x)", rows,
      KOKKOS_LAMBDA(std::int64_t r) {
        const std::int64_t base = r * n;
        const C mean = mv(r), rstd = rv(r);
        S sum_g = 0, sum_gx = 0;  // Σ ĝ and Σ ĝ x̂ over the row
        for (std::int64_t j = 0; j < n; ++j) {
          const C gj = static_cast<C>(gv(base + j)) * (has_w ? static_cast<C>(wv(j)) : C(1));
          const C xhat = (static_cast<C>(xv(base + j)) - mean) * rstd;
          sum_g += static_cast<S>(gj);
          sum_gx += static_cast<S>(gj) * static_cast<S>(xhat);
        }
        const C mean_g = static_cast<C>(sum_g / static_cast<S>(n)), mean_gx = static_cast<C>(sum_gx / static_cast<S>(n));
        for (std::int64_t j = 0; j < n; ++j) {
          const C gj = static_cast<C>(gv(base + j)) * (has_w ? static_cast<C>(wv(j)) : C(1));
          const C xhat = (static_cast<C>(xv(base + j)) - mean) * rstd;
          dxv(base + j) = static_cast<T>(rstd * (gj - mean_g - xhat * mean_gx));
        }
      },
      x.numel());
  if (need_params && (has_w || has_bias)) {
    // One thread per column, over the rows in order.
    if (has_w) grads.dw = Tensor<T, D>({n}, exec);
    if (has_bias) grads.db = Tensor<T, D>({n}, exec);
    const auto dwv = has_w ? grads.dw.view() : typename Tensor<T, D>::view_type();
    const auto dbv = has_bias ? grads.db.view() : typename Tensor<T, D>::view_type();
    parallel_for(
        exec, "kt::layer_norm backward (weight, bias)", n,
        KOKKOS_LAMBDA(std::int64_t j) {
          S sum_w = 0, sum_b = 0;
          for (std::int64_t r = 0; r < rows; ++r) {
            const S gj = static_cast<S>(static_cast<C>(gv(r * n + j)));
            sum_w += gj * static_cast<S>((static_cast<C>(xv(r * n + j)) - mv(r)) * rv(r));
            sum_b += gj;
          }
          if (has_w) dwv(j) = static_cast<T>(static_cast<C>(sum_w));
          if (has_bias) dbv(j) = static_cast<T>(static_cast<C>(sum_b));
        },
        x.numel());
  }
  return grads;
}

}  // namespace kt::impl
