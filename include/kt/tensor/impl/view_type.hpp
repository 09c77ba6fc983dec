#pragma once
// Unmanaged LayoutRight Kokkos View types over a tensor's memory, for any rank.

#include "kt/core/impl/internal.hpp"

#include "kt/tensor/shape.hpp"

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <utility>

namespace kt::impl {

template <class T, int R>
struct add_pointers {
  using type = typename add_pointers<T, R - 1>::type*;
};
template <class T>
struct add_pointers<T, 0> {
  using type = T;
};

/// `Kokkos::View<T**...>` of rank R, LayoutRight, in MemSpace, unmanaged (kt owns the memory).
template <class T, int R, class MemSpace>
using view_t = Kokkos::View<typename add_pointers<T, R>::type, Kokkos::LayoutRight, MemSpace,
                            Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

template <class T, int R, class MemSpace, std::size_t... I>
view_t<T, R, MemSpace> make_view(T* data, const Shape& shape, std::index_sequence<I...>) {
  return view_t<T, R, MemSpace>(data, static_cast<std::size_t>(shape[static_cast<int>(I)])...);
}

template <class T, int R, class MemSpace>
view_t<T, R, MemSpace> make_view(T* data, const Shape& shape) {
  return make_view<T, R, MemSpace>(data, shape, std::make_index_sequence<R>{});
}

}  // namespace kt::impl
