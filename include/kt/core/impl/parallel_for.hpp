#pragma once
// kt's 1-D kernel launch. On a host thread pool (OpenMP) a small kernel runs on the calling
// thread instead (Kokkos::Serial, same memory space): an OpenMP fork-join costs ~1-2 µs, more
// than one core needs for a few thousand simple elements, and small-model training launches
// dozens of such kernels per step. Results do not change: every kt kernel computes each
// element independently of how the range is split (reductions fix their order by shape).

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace kt::impl {

/// Work (elements touched) below which a host-pool kernel runs on the calling thread.
inline constexpr std::int64_t inline_kernel_work = 8192;

/// The execution space a small kernel of device D runs on: D itself, except Serial for OpenMP.
template <class D>
struct inline_space {
  using type = D;
};
#if defined(KOKKOS_ENABLE_OPENMP) && defined(KOKKOS_ENABLE_SERIAL)
template <>
struct inline_space<Kokkos::OpenMP> {
  using type = Kokkos::Serial;
};
#endif

/// Kokkos::parallel_for(label, [0, n), f) on D's default instance, or on the calling thread
/// when D is a host pool and `work` (default n) is small.
template <class D, class F>
void parallel_for(const char* label, std::int64_t n, const F& f, std::int64_t work = -1) {
  using Inline = typename inline_space<D>::type;
  if constexpr (!std::is_same_v<Inline, D>) {
    if ((work < 0 ? n : work) < inline_kernel_work) {
      Kokkos::parallel_for(label, Kokkos::RangePolicy<Inline, Kokkos::IndexType<std::int64_t>>(0, n), f);
      return;
    }
  }
  Kokkos::parallel_for(label, Kokkos::RangePolicy<D, Kokkos::IndexType<std::int64_t>>(0, n), f);
}

/// Kokkos::parallel_reduce(label, [0, n), f, results...) with the same small-kernel rule.
template <class D, class F, class... Results>
void parallel_reduce(const char* label, std::int64_t n, const F& f, Results&... results) {
  using Inline = typename inline_space<D>::type;
  if constexpr (!std::is_same_v<Inline, D>) {
    if (n < inline_kernel_work) {
      Kokkos::parallel_reduce(label, Kokkos::RangePolicy<Inline, Kokkos::IndexType<std::int64_t>>(0, n), f, results...);
      return;
    }
  }
  Kokkos::parallel_reduce(label, Kokkos::RangePolicy<D, Kokkos::IndexType<std::int64_t>>(0, n), f, results...);
}

}  // namespace kt::impl
