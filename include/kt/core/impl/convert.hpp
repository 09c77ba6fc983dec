#pragma once
// Element conversions between dtypes, the one definition every kernel uses.

#include "kt/core/impl/internal.hpp"

#include "kt/core/dtype.hpp"

#include <Kokkos_Macros.hpp>

#include <type_traits>

namespace kt::impl {

/// Converts between dtypes the way `tensor.to(dtype)` does: through the compute types, so
/// 16-bit values round once (round-to-nearest-even) and floats truncate toward zero to ints.
template <class To, class From>
KOKKOS_INLINE_FUNCTION To convert(const From& x) {
  if constexpr (std::is_same_v<To, From>) {
    return x;
  } else {
    return static_cast<To>(static_cast<compute_t<To>>(static_cast<compute_t<From>>(x)));
  }
}

}  // namespace kt::impl
