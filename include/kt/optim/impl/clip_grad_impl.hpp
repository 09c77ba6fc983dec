#pragma once
// Norms and scaling behind kt::clip_grad_norm_. Norms go through kt's deterministic reduction
// engine (kt/tensor/impl/reduce_impl.hpp) with reducers that accumulate in double, so the
// total norm is bit-identical on every host device at every thread count.

#include "kt/core/impl/internal.hpp"

#include "kt/core/dtype.hpp"
#include "kt/core/impl/parallel_for.hpp"
#include "kt/core/impl/kokkos_compat.hpp"
#include "kt/tensor/impl/reduce_impl.hpp"
#include "kt/tensor/tensor.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kt::impl {

/// Σ |x|^p in double (p = 1 and p = 2 without pow).
template <class T>
struct PowSumReducer {
  using acc_type = double;
  double p;
  KOKKOS_INLINE_FUNCTION acc_type init() const { return 0.0; }
  KOKKOS_INLINE_FUNCTION void accumulate(acc_type& a, const T& x, std::int64_t) const {
    const double v = static_cast<double>(static_cast<compute_t<T>>(x));
    const double m = v < 0 ? -v : v;
    if (p == 2.0) a += v * v;
    else if (p == 1.0) a += m;
    else a += KT_KOKKOS_MATH::pow(m, p);
  }
  KOKKOS_INLINE_FUNCTION void combine(acc_type& a, const acc_type& b) const { a += b; }
};

/// max |x| in double; NaN wins (as torch.linalg.vector_norm(ord=inf) propagates it).
template <class T>
struct AbsMaxReducer {
  using acc_type = double;
  KOKKOS_INLINE_FUNCTION acc_type init() const { return 0.0; }
  KOKKOS_INLINE_FUNCTION void accumulate(acc_type& a, const T& x, std::int64_t) const {
    const double v = static_cast<double>(static_cast<compute_t<T>>(x));
    combine(a, v < 0 ? -v : v);
  }
  KOKKOS_INLINE_FUNCTION void combine(acc_type& a, const acc_type& b) const {
    if (a != a) return;
    if (b != b || b > a) a = b;
  }
};

/// Σ |g|^p (or max |g| when `inf`) of one gradient, on the host.
template <class T, class D>
double grad_norm_part(const Tensor<T, D>& g, double p, bool inf) {
  if (inf)
    return reduce_all<double, false>(D(), "kt::clip_grad_norm_::norm", g, AbsMaxReducer<T>{}, FinishValue<double>{})
        .item();
  return reduce_all<double, false>(D(), "kt::clip_grad_norm_::norm", g, PowSumReducer<T>{p}, FinishValue<double>{})
      .item();
}

/// g ← coef·g in compute_t<T>.
template <class T, class D>
void scale_grad(const Tensor<T, D>& grad, double coef) {
  using C = compute_t<T>;
  const auto g = grad.view();
  const C c = static_cast<C>(coef);
  parallel_for(D(), "kt::clip_grad_norm_::scale", grad.numel(),
               KOKKOS_LAMBDA(std::int64_t i) { g(i) = static_cast<T>(static_cast<C>(g(i)) * c); });
}

}  // namespace kt::impl
