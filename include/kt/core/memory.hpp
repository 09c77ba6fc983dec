#pragma once
/// \file kt/core/memory.hpp
/// Memory statistics and the cache of each device's memory space
/// (`torch.cuda.memory_allocated`, `memory_reserved`, `max_memory_allocated`, `empty_cache`).
///
///     auto s = kt::memory_stats<kt::DefaultDevice>();
///     std::cout << s.allocated << " bytes in tensors, " << s.reserved << " held\n";
///     kt::empty_cache<kt::DefaultDevice>();

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/device.hpp"
#include "kt/core/impl/caching_allocator.hpp"

namespace kt {

/// Statistics of device D's memory space; devices sharing a space (Serial, OpenMP) share them.
template <class D>
MemoryStats memory_stats() {
  static_assert(is_device_v<D>, "kt::memory_stats: D is not a Kokkos execution space");
  return impl::Allocator<memory_space_t<D>>::instance().stats();
}

/// Restarts peak tracking at the current usage (`torch.cuda.reset_peak_memory_stats`).
template <class D>
void reset_peak_memory_stats() {
  static_assert(is_device_v<D>, "kt::reset_peak_memory_stats: D is not a Kokkos execution space");
  impl::Allocator<memory_space_t<D>>::instance().reset_peak();
}

/// Returns every cached, unused block of D's memory space to the system.
template <class D>
void empty_cache() {
  static_assert(is_device_v<D>, "kt::empty_cache: D is not a Kokkos execution space");
  impl::Allocator<memory_space_t<D>>::instance().empty_cache();
}

/// Turns the caching allocator on or off for D's memory space (on by default: see
/// kt/core/impl/caching_allocator.hpp for why). Turning it off empties the cache.
template <class D>
void set_caching_enabled(bool enabled) {
  static_assert(is_device_v<D>, "kt::set_caching_enabled: D is not a Kokkos execution space");
  impl::Allocator<memory_space_t<D>>::instance().set_caching(enabled);
}

/// Whether D's memory space serves allocations from its cache.
template <class D>
bool caching_enabled() {
  static_assert(is_device_v<D>, "kt::caching_enabled: D is not a Kokkos execution space");
  return impl::Allocator<memory_space_t<D>>::instance().caching();
}

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
