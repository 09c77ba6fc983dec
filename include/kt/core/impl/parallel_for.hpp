#pragma once
// kt's 1-D kernel launches, on an execution-space instance. Every kt kernel goes through
// these two functions, so the rules below hold everywhere:
//  - The kernel is ordered on `exec` (a CUDA stream on GPUs); nothing fences.
//  - On a host thread pool (OpenMP) a small kernel runs on the calling thread instead
//    (Kokkos::Serial, same memory space): an OpenMP fork-join costs ~1-2 µs, more than one
//    core needs for a few thousand simple elements, and small-model training launches dozens
//    of such kernels per step. Results do not change: every kt kernel computes each element
//    independently of how the range is split (reductions fix their order by shape). The rule
//    never applies to GPUs, whose launches are asynchronous anyway.

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

template <class Exec>
using index_policy_t = Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>;

/// Kokkos::parallel_for(label, [0, n), f) on `exec`, or on the calling thread when exec is a
/// host pool and `work` (default n) is small.
template <class Exec, class F>
void parallel_for(const Exec& exec, const char* label, std::int64_t n, const F& f, std::int64_t work = -1) {
  using Inline = typename inline_space<Exec>::type;
  if constexpr (!std::is_same_v<Inline, Exec>) {
    if ((work < 0 ? n : work) < inline_kernel_work) {
      Kokkos::parallel_for(label, index_policy_t<Inline>(0, n), f);
      return;
    }
  }
  Kokkos::parallel_for(label, index_policy_t<Exec>(exec, 0, n), f);
}

/// Kokkos::parallel_reduce(label, [0, n), f, results...) on `exec`, with the same small-kernel
/// rule. Reducing into host scalars waits for the result.
template <class Exec, class F, class... Results>
void parallel_reduce(const Exec& exec, const char* label, std::int64_t n, const F& f, Results&... results) {
  using Inline = typename inline_space<Exec>::type;
  if constexpr (!std::is_same_v<Inline, Exec>) {
    if (n < inline_kernel_work) {
      Kokkos::parallel_reduce(label, index_policy_t<Inline>(0, n), f, results...);
      return;
    }
  }
  Kokkos::parallel_reduce(label, index_policy_t<Exec>(exec, 0, n), f, results...);
}

}  // namespace kt::impl
