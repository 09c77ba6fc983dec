#pragma once
// The element passes of kt/tensor/linear.hpp: the forward epilogue y = act(y + b) and the
// backward pass dz = dy ⊙ act'(z) fused with the bias gradient db = Σ_rows dz.

#include "kt/tensor/impl/activation.hpp"
#include "kt/tensor/tensor.hpp"

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace kt::impl {

template <class T, class D>
void check_linear(const Tensor<T, D>& x, const Tensor<T, D>& w, const Tensor<T, D>& b) {
  static_assert(is_floating_dtype_v<T>, "kt::linear: needs a floating dtype");
  KT_REQUIRE(x.defined() && w.defined(), "kt::linear: x and w must be defined tensors");
  KT_REQUIRE(x.rank() == 2 && w.rank() == 2, "kt::linear: x and w must be 2-D, got ", x.shape().str(),
             " and ", w.shape().str());
  KT_REQUIRE(x.size(1) == w.size(1), "kt::linear: x has ", x.size(1), " features but w expects ",
             w.size(1), ": x ", x.shape().str(), ", w ", w.shape().str());
  KT_REQUIRE(!b.defined() || (b.rank() == 1 && b.size(0) == w.size(0)), "kt::linear: bias of shape ",
             b.defined() ? b.shape().str() : std::string(), " does not match ", w.size(0), " outputs");
}

/// Calls f(std::integral_constant<Activation, act>{}), so kernels see the activation as a
/// compile-time constant: branch-free inner loops the compiler can vectorise.
template <class F>
void with_activation(Activation act, F&& f) {
  switch (act) {
    case Activation::ReLU: return f(std::integral_constant<Activation, Activation::ReLU>{});
    case Activation::GELU: return f(std::integral_constant<Activation, Activation::GELU>{});
    case Activation::Tanh: return f(std::integral_constant<Activation, Activation::Tanh>{});
    default: return f(std::integral_constant<Activation, Activation::Identity>{});
  }
}

/// y = act(y + b) in place (b optional); keeps z = y + b in `pre` when it is defined.
template <class T, class D>
void linear_epilogue(const Tensor<T, D>& y, const Tensor<T, D>& b, Activation act, const Tensor<T, D>& pre) {
  using C = compute_t<T>;
  if (y.numel() == 0 || (act == Activation::Identity && !b.defined())) return;
  const auto out = y.view();
  const auto bias = b.defined() ? b.view() : typename Tensor<T, D>::view_type();
  const auto z = pre.defined() ? pre.view() : typename Tensor<T, D>::view_type();
  const bool has_bias = b.defined(), keep = pre.defined();
  const std::int64_t cols = y.size(1);
  // Rows in parallel, columns in an inner loop: no per-element index division (with an
  // `i % cols` per element the fused forward measured slower than the unfused ops).
  with_activation(act, [&](auto a) {
    constexpr Activation A = decltype(a)::value;
    Kokkos::parallel_for("kt::linear::epilogue", Kokkos::RangePolicy<D>(0, y.size(0)),
                         KOKKOS_LAMBDA(std::int64_t i) {
                           for (std::int64_t j = 0; j < cols; ++j) {
                             const std::int64_t e = i * cols + j;
                             C v = static_cast<C>(out(e));
                             if (has_bias) v += static_cast<C>(bias(j));
                             if (keep) z(e) = static_cast<T>(v);
                             out(e) = static_cast<T>(activate(A, v));
                           }
                         });
  });
}

/// dz = dy ⊙ act'(z) and, when db is defined, db = Σ_rows dz — one thread per column walks
/// the rows in order, so db is the same at every thread count.
template <class T, class D, class Fwd>
void linear_grad_epilogue(const Tensor<T, D>& dy, const Fwd& fwd, Activation act, const Tensor<T, D>& dz,
                          const Tensor<T, D>& db) {
  using C = compute_t<T>;
  const auto g = dy.view();
  const auto y = fwd.output.view();
  const auto z = fwd.pre_activation.defined() ? fwd.pre_activation.view() : y;
  const auto out = dz.view();
  const auto bias = db.defined() ? db.view() : typename Tensor<T, D>::view_type();
  const bool has_bias = db.defined();
  const std::int64_t rows = dy.size(0), cols = dy.size(1);
  Kokkos::parallel_for("kt::linear::backward_epilogue", Kokkos::RangePolicy<D>(0, cols),
                       KOKKOS_LAMBDA(std::int64_t j) {
                         C sum = C(0);
                         for (std::int64_t i = 0; i < rows; ++i) {
                           const std::int64_t e = i * cols + j;
                           const C d = static_cast<C>(g(e)) *
                                       activation_grad(act, static_cast<C>(z(e)), static_cast<C>(y(e)));
                           out(e) = static_cast<T>(d);
                           sum += d;
                         }
                         if (has_bias) bias(j) = static_cast<T>(sum);
                       });
}

}  // namespace kt::impl
