#pragma once
// GradScaler's unscale: up to 8 gradients per launch are multiplied by 1/scale in place (in
// compute_t<T>, one rounding back to T), and a result that is Inf or NaN raises two device
// flags: the optimizer's (its step is skipped) and the iteration's (update() backs off). The
// reciprocal of the scale is read on the device, so the host never waits for it.

#include "kt/core/impl/internal.hpp"

#include "kt/core/dtype.hpp"
#include "kt/tensor/impl/multi_tensor.hpp"
#include "kt/tensor/impl/ops.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kt::impl {

/// g *= *inv_scale for up to 8 gradients; *found = *any_found = 1 on an Inf/NaN product
/// (never cleared here).
template <class T>
struct UnscaleGroup {
  using C = compute_t<T>;
  static constexpr int capacity = 8;
  TensorGroup<capacity> group;
  T* g[capacity];
  const double* inv_scale;  // 1 / scale in double, rounded once to C (PyTorch's order)
  std::int32_t* found;
  std::int32_t* any_found;

  /// One gradient element; many threads may write the same 1: atomic so the race is defined.
  static KOKKOS_INLINE_FUNCTION void unscale(T& g, C inv_scale, std::int32_t* found, std::int32_t* any_found) {
    const C v = static_cast<C>(g) * inv_scale;
    g = static_cast<T>(v);
    if (!op::IsFinite()(v)) {
      Kokkos::atomic_exchange(found, std::int32_t(1));
      Kokkos::atomic_exchange(any_found, std::int32_t(1));
    }
  }

  KOKKOS_INLINE_FUNCTION void element(int e, std::int64_t i) const {
    unscale(g[e][i], static_cast<C>(*inv_scale), found, any_found);
  }

  /// Tensor e with the reciprocal as a value (host devices: kt/tensor/impl/multi_tensor.hpp).
  struct Bound {
    T* g;
    C inv_scale;
    std::int32_t *found, *any_found;
    bool skip;
    KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { unscale(g[i], inv_scale, found, any_found); }
  };
  Bound bind(int e) const { return {g[e], static_cast<C>(*inv_scale), found, any_found, false}; }
};

}  // namespace kt::impl
