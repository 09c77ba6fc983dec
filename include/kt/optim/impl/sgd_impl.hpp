#pragma once
// The fused SGD update: one kernel per parameter tensor reads the parameter, its gradient and
// the momentum buffer and writes the parameter and the buffer, computing in compute_t<T>.

#include "kt/core/dtype.hpp"
#include "kt/tensor/tensor.hpp"

#include <Kokkos_Core.hpp>

namespace kt::optim::impl {

/// The hyperparameters of one SGD update, in the compute type (copied into the kernel).
template <class C>
struct SGDStepArgs {
  C lr, momentum, one_minus_dampening, weight_decay;
  bool nesterov, maximize;
  bool first;  // the momentum buffer is new: buf = g
};

/// PyTorch's single-tensor SGD on one parameter: g (+ wd·p); buf = g on the first step, else
/// μ·buf + (1 − dampening)·g; g = g + μ·buf (Nesterov) or buf; p = p − lr·g. `buf` is
/// ignored when momentum is 0.
template <class T, class D>
void sgd_step(const Tensor<T, D>& param, const Tensor<T, D>& grad,
              const Tensor<compute_t<T>, D>& buf, const SGDStepArgs<compute_t<T>>& a) {
  using C = compute_t<T>;
  const auto p = param.view();
  const auto g = grad.view();
  const auto b = a.momentum != C(0) ? buf.view() : typename Tensor<C, D>::view_type();
  const SGDStepArgs<C> args = a;
  Kokkos::parallel_for(
      "kt::optim::SGD::step", Kokkos::RangePolicy<D>(0, p.extent(0)), KOKKOS_LAMBDA(std::size_t i) {
        C d = static_cast<C>(g(i));
        if (args.maximize) d = -d;
        const C x = static_cast<C>(p(i));
        if (args.weight_decay != C(0)) d = d + args.weight_decay * x;
        if (args.momentum != C(0)) {
          const C m = args.first ? d : args.momentum * b(i) + args.one_minus_dampening * d;
          b(i) = m;
          d = args.nesterov ? d + args.momentum * m : m;
        }
        p(i) = static_cast<T>(x + (-args.lr) * d);
      });
}

}  // namespace kt::optim::impl
