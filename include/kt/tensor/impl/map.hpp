#pragma once
// The elementwise kernels every op is built from, on an execution-space instance:
// out = f(a), out = f(a, b) with broadcasting, and the in-place a = f(a), a = f(a, b).
// Values are read in T, computed in compute_t<T> and written as R.

#include "kt/core/impl/internal.hpp"

#include "kt/core/impl/compiled.hpp"
#include "kt/core/impl/parallel_for.hpp"
#include "kt/core/profiling.hpp"
#include "kt/tensor/impl/broadcast.hpp"
#include "kt/tensor/impl/ops.hpp"
#include "kt/tensor/tensor.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace kt::impl {

template <class T, class D>
void require_defined(const Tensor<T, D>& t, const char* op, const char* which) {
  KT_REQUIRE(t.defined(), op, ": ", which, " is an undefined tensor");
}

/// out = f(a), out of dtype R.
template <class R, class T, class D, class F>
Tensor<R, D> unary_map(const D& exec, const char* op, const Tensor<T, D>& a, F f) {
  require_defined(a, op, "the input");
  Tensor<R, D> out(a.shape(), exec);
  const auto x = a.view();
  const auto y = out.view();
  parallel_for(exec, op, a.numel(), KOKKOS_LAMBDA(std::int64_t i) {
    y(i) = static_cast<R>(f(static_cast<compute_t<T>>(x(i))));
  });
  return out;
}

/// out = f(a, b) with NumPy broadcasting, out of dtype R.
template <class R, class T, class D, class F>
Tensor<R, D> binary_map(const D& exec, const char* op, const Tensor<T, D>& a, const Tensor<T, D>& b, F f) {
  require_defined(a, op, "the left operand");
  require_defined(b, op, "the right operand");
  using C = compute_t<T>;
  const auto x = a.view();
  const auto y = b.view();
  if (a.shape() == b.shape()) {  // the common case needs no index arithmetic
    Tensor<R, D> out(a.shape(), exec);
    const auto z = out.view();
    parallel_for(exec, op, out.numel(), KOKKOS_LAMBDA(std::int64_t i) {
      z(i) = static_cast<R>(f(static_cast<C>(x(i)), static_cast<C>(y(i))));
    });
    return out;
  }
  const Shape shape = broadcast_shapes(a.shape(), b.shape(), op);
  Tensor<R, D> out(shape, exec);
  const auto z = out.view();
  broadcast_for(exec, op, BroadcastIndex(shape, a.shape(), b.shape()), out.numel(),
                KOKKOS_LAMBDA(std::int64_t e, std::int64_t ia, std::int64_t ib) {
                  z(e) = static_cast<R>(f(static_cast<C>(x(ia)), static_cast<C>(y(ib))));
                });
  return out;
}

/// a = f(a, b); b broadcasts to a's shape (a itself never changes shape, as in PyTorch).
template <class T, class D, class F>
void binary_inplace(const D& exec, const char* op, const Tensor<T, D>& a, const Tensor<T, D>& b, F f) {
  require_defined(a, op, "the left operand");
  require_defined(b, op, "the right operand");
  const Shape shape = broadcast_shapes(a.shape(), b.shape(), op);
  KT_REQUIRE(shape == a.shape(), op, ": the result shape ", shape.str(),
             " differs from the in-place operand's shape ", a.shape().str());
  using C = compute_t<T>;
  const auto x = a.view();
  const auto y = b.view();
  broadcast_for(exec, op, BroadcastIndex(shape, a.shape(), b.shape()), a.numel(),
                KOKKOS_LAMBDA(std::int64_t e, std::int64_t, std::int64_t ib) {
                  x(e) = static_cast<T>(f(static_cast<C>(x(e)), static_cast<C>(y(ib))));
                });
}

/// a = f(a) in place.
template <class T, class D, class F>
void unary_inplace(const D& exec, const char* op, const Tensor<T, D>& a, F f) {
  require_defined(a, op, "the operand");
  const auto x = a.view();
  parallel_for(exec, op, a.numel(), KOKKOS_LAMBDA(std::int64_t i) {
    x(i) = static_cast<T>(f(static_cast<compute_t<T>>(x(i))));
  });
}

/// Integer division by zero would trap on the host and is undefined on GPUs: check first.
template <class T, class D>
void require_no_zero(const D& exec, const char* op, const Tensor<T, D>& divisor) {
  if constexpr (std::is_integral_v<T>) {
    const auto y = divisor.view();
    std::int64_t zeros = 0;
    parallel_reduce(
        exec, "kt::count_zeros", divisor.numel(),
        KOKKOS_LAMBDA(std::int64_t i, std::int64_t & count) { count += y(i) == T(0) ? 1 : 0; }, zeros);
    KT_REQUIRE(zeros == 0, op, ": integer division by zero (", zeros, " zero divisors)");
  }
}

/// out[i] = f(g[i], x[i], y[i]) for three tensors of one shape (gradient, input, output);
/// f works in the compute type.
template <class T, class D, class F>
Tensor<T, D> grad_map(const char* label, const Tensor<T, D>& g, const Tensor<T, D>& x,
                      const Tensor<T, D>& y, F f) {
  using C = compute_t<T>;
  const D exec;
  Tensor<T, D> out(g.shape(), exec);
  const auto gv = g.view(), xv = x.view(), yv = y.view(), ov = out.view();
  parallel_for(exec, label, out.numel(), KOKKOS_LAMBDA(std::int64_t i) {
    ov(i) = static_cast<T>(f(static_cast<C>(gv(i)), static_cast<C>(xv(i)), static_cast<C>(yv(i))));
  });
  return out;
}

/// The gradient of a unary functor of kt/tensor/impl/ops.hpp: g · f'(x), from (g, x, y).
template <class Op>
struct UnaryGrad {
  Op op;
  template <class C>
  KOKKOS_INLINE_FUNCTION C operator()(C g, C x, C y) const { return op.grad(g, x, y); }
};

}  // namespace kt::impl

// kt_compiled (kt/core/impl/compiled.hpp): the four arithmetic ops of two floating tensors, and
// the in-place sum with which autograd accumulates gradients (the other in-place ops stay in
// the programs that use them: each is a kernel per dtype and device, nvcc's costliest code);
// and the equality of two int64 tensors, with which programs count correct predictions
// (`kt::argmax(logits, 1) == labels`).
#define KT_ETI_BINARY_MAP(T, D, Op, KW)                                                                     \
  KW kt::Tensor<T, D> kt::impl::binary_map<T, T, D, Op>(const D&, const char*, const kt::Tensor<T, D>&,     \
                                                         const kt::Tensor<T, D>&, Op);
#define KT_ETI_BINARY_ONE(T, D, KW)                                                                         \
  KT_ETI_BINARY_MAP(T, D, kt::impl::op::Add, KW) KT_ETI_BINARY_MAP(T, D, kt::impl::op::Sub, KW)             \
  KT_ETI_BINARY_MAP(T, D, kt::impl::op::Mul, KW) KT_ETI_BINARY_MAP(T, D, kt::impl::op::Div, KW)             \
  KW void kt::impl::binary_inplace<T, D, kt::impl::op::Add>(const D&, const char*, const kt::Tensor<T, D>&, \
                                                            const kt::Tensor<T, D>&, kt::impl::op::Add);
#define KT_ETI_LABELS_EQUAL(D, KW)                                                                      \
  KW kt::Tensor<std::uint8_t, D> kt::impl::binary_map<std::uint8_t, std::int64_t, D, kt::impl::op::Eq>( \
      const D&, const char*, const kt::Tensor<std::int64_t, D>&, const kt::Tensor<std::int64_t, D>&, kt::impl::op::Eq);
#define KT_ETI_BINARY(KW) \
  KT_ETI_EACH_FLOAT_DEVICE(KT_ETI_BINARY_ONE, KW) KT_ETI_EACH_DEVICE(KT_ETI_LABELS_EQUAL, KW)
#if defined(KT_COMPILED) && !defined(KT_COMPILED_DEFINES_ELEMENTWISE)
KT_ETI_BINARY(extern template)
#endif
