#pragma once
// GradScaler's unscale: one kernel per gradient multiplies it by 1/scale in place (in
// compute_t<T>, one rounding back to T) and raises a device flag when a result is Inf or NaN.
// The flag stays on the device until the caller reads it once for all gradients: one
// device-to-host copy per optimizer step, not one per tensor.

#include "kt/core/dtype.hpp"
#include "kt/core/impl/parallel_for.hpp"
#include "kt/tensor/impl/ops.hpp"
#include "kt/tensor/tensor.hpp"

#include <Kokkos_Core.hpp>

namespace kt::impl {

template <class D>
using found_inf_view = Kokkos::View<int, typename D::memory_space>;

/// grad *= inv_scale; found() = 1 if any product is not finite (found is never cleared here).
template <class T, class D>
void unscale_grad(const Tensor<T, D>& grad, double inv_scale, const found_inf_view<D>& found) {
  using C = compute_t<T>;
  const auto g = grad.view();
  const C s = static_cast<C>(inv_scale);
  parallel_for(D(), "kt::amp::GradScaler::unscale_", grad.numel(), KOKKOS_LAMBDA(std::int64_t i) {
        const C v = static_cast<C>(g(i)) * s;
        g(i) = static_cast<T>(v);
        // Many threads may write the same 1: atomic so the race is defined.
        if (!op::IsFinite()(v)) Kokkos::atomic_exchange(&found(), 1);
      });
}

}  // namespace kt::impl
