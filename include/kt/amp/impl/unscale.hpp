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

#include <cstdint>

namespace kt::impl {

/// grad *= inv_scale; found (a scalar) = 1 if any product is not finite (never cleared here).
/// The flag is a kt tensor, so it comes from kt's caching allocator: no device allocation per
/// step.
template <class T, class D>
void unscale_grad(const Tensor<T, D>& grad, double inv_scale, const Tensor<std::int32_t, D>& found) {
  using C = compute_t<T>;
  const auto g = grad.view();
  std::int32_t* flag = found.data();
  const C s = static_cast<C>(inv_scale);
  parallel_for(D(), "kt::amp::GradScaler::unscale_", grad.numel(), KOKKOS_LAMBDA(std::int64_t i) {
        const C v = static_cast<C>(g(i)) * s;
        g(i) = static_cast<T>(v);
        // Many threads may write the same 1: atomic so the race is defined.
        if (!op::IsFinite()(v)) Kokkos::atomic_exchange(flag, std::int32_t(1));
      });
}

}  // namespace kt::impl
