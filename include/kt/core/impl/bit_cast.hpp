#pragma once
// kt::impl::bit_cast: C++20's std::bit_cast for C++17, callable from host and device code.
//
//     std::uint32_t u = kt::impl::bit_cast<std::uint32_t>(1.0f);   // 0x3f800000

#include "kt/core/impl/internal.hpp"

#include <Kokkos_Macros.hpp>

#include <cstring>
#include <type_traits>

namespace kt::impl {

/// Reinterprets the object representation of `from` as a `To` of the same size.
/// memcpy-based (as Kokkos' own bit_cast): compilers turn it into a register move, and
/// `memcpy` is available in CUDA and HIP device code. Not constexpr.
template <class To, class From>
KOKKOS_INLINE_FUNCTION To bit_cast(const From& from) {
  static_assert(sizeof(To) == sizeof(From), "kt::impl::bit_cast: sizeof(To) != sizeof(From)");
  static_assert(std::is_trivially_copyable_v<To> && std::is_trivially_copyable_v<From>,
                "kt::impl::bit_cast: both types must be trivially copyable");
  static_assert(std::is_trivially_default_constructible_v<To>,
                "kt::impl::bit_cast: To must be trivially default constructible");
  To to;
  memcpy(static_cast<void*>(&to), static_cast<const void*>(&from), sizeof(To));
  return to;
}

} // namespace kt::impl
