#pragma once
// The mask kernel of kt::dropout (kt/functional/dropout.hpp).

#include "kt/core/dtype.hpp"
#include "kt/tensor/impl/view_type.hpp"

#include <Kokkos_Macros.hpp>

#include <cstdint>

namespace kt::impl {

/// mask(i) = u(i) >= p ? 1 / (1 − p) : 0 from fp32 uniforms u: keeps an element with
/// probability 1 − p, scaled in T's compute type.
template <class T, class MemSpace>
struct DropoutMask {
  view_t<T, 1, MemSpace> mask;
  view_t<float, 1, MemSpace> u;
  float p;
  compute_t<T> scale;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { mask(i) = u(i) >= p ? T(scale) : T(0); }
};

}  // namespace kt::impl
