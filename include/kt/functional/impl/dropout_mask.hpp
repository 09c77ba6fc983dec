#pragma once
// The mask functor of kt::dropout (kt/functional/dropout.hpp).

#include <Kokkos_Macros.hpp>

namespace kt::impl {

/// u -> (u >= p) / (1 - p): keeps an element with probability 1 - p.
template <class C>
struct DropoutMask {
  static constexpr bool floating = true;
  C p, scale;
  KOKKOS_INLINE_FUNCTION C operator()(C u) const { return u >= p ? scale : C(0); }
};

}  // namespace kt::impl
