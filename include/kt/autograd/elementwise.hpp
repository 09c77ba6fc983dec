#pragma once
/// \file kt/autograd/elementwise.hpp
/// Differentiable binary arithmetic on kt::Var with NumPy broadcasting: `+ - * /`,
/// `kt::maximum`, `kt::minimum` (Var with Var or with a scalar) and `kt::pow(var, exponent)`.
/// Gradients of broadcast operands are summed back to the operand's shape.
///
///     kt::Var<float> w(kt::randn<float>({1, 3}, 0), true), x(kt::randn<float>({4, 3}, 1));
///     auto y = (x * w + 1.0f) / 2.0f;     // w broadcasts over the 4 rows
///     kt::sum(y).backward();             // w.grad() has shape (1, 3): column sums of x / 2

#include "kt/autograd/impl/grad_kernels.hpp"
#include "kt/autograd/impl/record.hpp"
#include "kt/autograd/var.hpp"
#include "kt/tensor/elementwise.hpp"
#include "kt/tensor/unary.hpp"

#include <type_traits>
#include <vector>

namespace kt {

namespace impl {
/// d max(a, b): the gradient goes to the larger operand, split evenly on ties (PyTorch).
struct MaxGradLeft {
  template <class C>
  KOKKOS_INLINE_FUNCTION C operator()(C g, C a, C b) const {
    return a > b ? g : (a == b ? g / C(2) : C(0));
  }
};
struct MinGradLeft {
  template <class C>
  KOKKOS_INLINE_FUNCTION C operator()(C g, C a, C b) const {
    return a < b ? g : (a == b ? g / C(2) : C(0));
  }
};
template <class F>
constexpr const char* name_of() {
  return std::is_same_v<F, MaxGradLeft> ? "kt::maximum backward" : "kt::minimum backward";
}
template <class T, class D, class GradLeft>
Var<T, D> extreme(const char* name, const Var<T, D>& a, const Var<T, D>& b, Tensor<T, D> out) {
  return record(name, std::move(out), {a, b},
                [x = a.data(), y = b.data()](const Tensor<T, D>& g, const Needs& needs) {
                  std::vector<Tensor<T, D>> grads(2);
                  const Tensor<T, D> xe = expand_to(x, g.shape()), ye = expand_to(y, g.shape());
                  if (needs[0]) grads[0] = sum_to(grad_map(name_of<GradLeft>(), g, xe, ye, GradLeft{}), x.shape());
                  if (needs[1]) grads[1] = sum_to(grad_map(name_of<GradLeft>(), g, ye, xe, GradLeft{}), y.shape());
                  return grads;
                });
}
}  // namespace impl

template <class T, class D>
Var<T, D> operator+(const Var<T, D>& a, const Var<T, D>& b) {
  impl::require_defined("kt::operator+", {a, b});
  return impl::record("kt::add", a.data() + b.data(), {a, b},
                      [sa = a.shape(), sb = b.shape()](const Tensor<T, D>& g, const impl::Needs& needs) {
                        std::vector<Tensor<T, D>> grads(2);
                        if (needs[0]) grads[0] = impl::sum_to(g, sa);
                        if (needs[1]) grads[1] = impl::sum_to(g, sb);
                        return grads;
                      });
}

template <class T, class D>
Var<T, D> operator-(const Var<T, D>& a, const Var<T, D>& b) {
  impl::require_defined("kt::operator-", {a, b});
  return impl::record("kt::sub", a.data() - b.data(), {a, b},
                      [sa = a.shape(), sb = b.shape()](const Tensor<T, D>& g, const impl::Needs& needs) {
                        std::vector<Tensor<T, D>> grads(2);
                        if (needs[0]) grads[0] = impl::sum_to(g, sa);
                        if (needs[1]) grads[1] = impl::sum_to(-g, sb);
                        return grads;
                      });
}

template <class T, class D>
Var<T, D> operator*(const Var<T, D>& a, const Var<T, D>& b) {
  impl::require_defined("kt::operator*", {a, b});
  return impl::record("kt::mul", a.data() * b.data(), {a, b},
                      [x = a.data(), y = b.data()](const Tensor<T, D>& g, const impl::Needs& needs) {
                        std::vector<Tensor<T, D>> grads(2);
                        if (needs[0]) grads[0] = impl::sum_to(g * y, x.shape());
                        if (needs[1]) grads[1] = impl::sum_to(g * x, y.shape());
                        return grads;
                      });
}

template <class T, class D>
Var<T, D> operator/(const Var<T, D>& a, const Var<T, D>& b) {
  impl::require_defined("kt::operator/", {a, b});
  Tensor<T, D> out = a.data() / b.data();
  return impl::record("kt::div", out, {a, b},
                      [x = a.data(), y = b.data(), out](const Tensor<T, D>& g, const impl::Needs& needs) {
                        std::vector<Tensor<T, D>> grads(2);
                        if (needs[0]) grads[0] = impl::sum_to(g / y, x.shape());
                        if (needs[1]) grads[1] = impl::sum_to(-(g * out) / y, y.shape());  // -g a / b²
                        return grads;
                      });
}

/// Elementwise maximum (`torch.maximum`).
template <class T, class D>
Var<T, D> maximum(const Var<T, D>& a, const Var<T, D>& b) {
  impl::require_defined("kt::maximum", {a, b});
  return impl::extreme<T, D, impl::MaxGradLeft>("kt::maximum", a, b, maximum(a.data(), b.data()));
}

/// Elementwise minimum (`torch.minimum`).
template <class T, class D>
Var<T, D> minimum(const Var<T, D>& a, const Var<T, D>& b) {
  impl::require_defined("kt::minimum", {a, b});
  return impl::extreme<T, D, impl::MinGradLeft>("kt::minimum", a, b, minimum(a.data(), b.data()));
}

// Var with a scalar on either side. `grad_left(g)` / `grad_right(g)` give the Var's gradient.
#define KT_VAR_SCALAR_OP(sym, name, grad_right, grad_left)                                       \
  template <class T, class D, class S, class = std::enable_if_t<impl::is_scalar_v<S>>>            \
  Var<T, D> operator sym(const Var<T, D>& a, S s) {                                               \
    impl::require_defined(name, {a});                                                           \
    Tensor<T, D> out = a.data() sym s;                                                            \
    return impl::record(name, out, {a},                                                           \
                        [x = a.data(), out, s](const Tensor<T, D>& g, const impl::Needs&) {       \
                          (void)x; (void)out; (void)s;                                            \
                          return std::vector<Tensor<T, D>>{grad_right};                           \
                        });                                                                       \
  }                                                                                               \
  template <class T, class D, class S, class = std::enable_if_t<impl::is_scalar_v<S>>>            \
  Var<T, D> operator sym(S s, const Var<T, D>& a) {                                               \
    impl::require_defined(name, {a});                                                           \
    Tensor<T, D> out = s sym a.data();                                                            \
    return impl::record(name, out, {a},                                                           \
                        [x = a.data(), out, s](const Tensor<T, D>& g, const impl::Needs&) {       \
                          (void)x; (void)out; (void)s;                                            \
                          return std::vector<Tensor<T, D>>{grad_left};                            \
                        });                                                                       \
  }

KT_VAR_SCALAR_OP(+, "kt::add", g, g)
KT_VAR_SCALAR_OP(-, "kt::sub", g, -g)
KT_VAR_SCALAR_OP(*, "kt::mul", g * s, g * s)
KT_VAR_SCALAR_OP(/, "kt::div", g / s, -(g * out) / x)
#undef KT_VAR_SCALAR_OP

/// Elementwise maximum with a scalar (`torch.clamp_min`); ties split the gradient.
template <class T, class D, class S, class = std::enable_if_t<impl::is_scalar_v<S>>>
Var<T, D> maximum(const Var<T, D>& a, S s) {
  return maximum(a, Var<T, D>(full<T, D>(Shape{}, static_cast<T>(s))));
}

/// Elementwise minimum with a scalar (`torch.clamp_max`).
template <class T, class D, class S, class = std::enable_if_t<impl::is_scalar_v<S>>>
Var<T, D> minimum(const Var<T, D>& a, S s) {
  return minimum(a, Var<T, D>(full<T, D>(Shape{}, static_cast<T>(s))));
}

/// x^p elementwise for a scalar exponent (`torch.pow(x, p)`); d/dx = p x^(p-1).
template <class T, class D, class S, class = std::enable_if_t<impl::is_scalar_v<S>>>
Var<T, D> pow(const Var<T, D>& a, S p) {
  impl::require_defined("kt::pow", {a});
  return impl::record("kt::pow", pow(a.data(), p), {a},
                      [x = a.data(), p](const Tensor<T, D>& g, const impl::Needs&) {
                        return std::vector<Tensor<T, D>>{g * pow(x, p - S(1)) * p};
                      });
}

}  // namespace kt
